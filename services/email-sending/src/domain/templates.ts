import Mustache from "mustache";

/** Saved templates: Mustache, logic-less. `{{name}}` is HTML-escaped in the HTML part; `{{{name}}}` or `{{& name}}` is raw. */

export const TEMPLATE_NAME_PATTERN = "^[a-z0-9][a-z0-9_-]{0,63}$";
export const TEMPLATE_PART_MAX_LENGTH = 512 * 1024;

export type Variables = Record<string, unknown>;

type Token = [string, string, number, number, Token[]?, number?];

function tokensOf(template: string): Token[] {
  return Mustache.parse(template) as unknown as Token[];
}

/** Throws with Mustache's own message when a part does not parse (an unclosed section, say). */
export function checkSyntax(template: string): string | null {
  try {
    tokensOf(template);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The variables a part cannot be rendered without: every `{{x}}`, `{{{x}}}` and `{{& x}}` outside sections. Section
 * names (`{{#x}}`, `{{^x}}`) are optional by nature (absent is false), and names inside a section may come from it.
 */
export function requiredVariables(template: string): string[] {
  const names = new Set<string>();
  for (const token of tokensOf(template)) {
    if (token[0] === "name" || token[0] === "&") names.add(token[1]);
  }
  return [...names];
}

function lookup(variables: Variables, name: string): unknown {
  if (name === ".") return variables;
  let value: unknown = variables;
  for (const part of name.split(".")) {
    if (value === null || typeof value !== "object" || !(part in (value as object))) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Required names with no value (undefined or null) in `variables`, in the order the parts use them. */
export function missingVariables(parts: string[], variables: Variables): string[] {
  const missing = new Set<string>();
  for (const part of parts) {
    for (const name of requiredVariables(part)) {
      const value = lookup(variables, name);
      if (value === undefined || value === null) missing.add(name);
    }
  }
  return [...missing];
}

export interface TemplateParts {
  subject: string;
  html: string;
  text: string | null;
}

export interface RenderedParts {
  subject: string;
  html: string;
  text: string | null;
}

const plain = (value: unknown) => String(value);

/** HTML escaping applies to the HTML part only: the subject and the text part are not HTML. */
export function renderTemplate(parts: TemplateParts, variables: Variables): RenderedParts {
  return {
    subject: Mustache.render(parts.subject, variables, {}, { escape: plain }).replace(/[\r\n]+/g, " "),
    html: Mustache.render(parts.html, variables),
    text: parts.text === null ? null : Mustache.render(parts.text, variables, {}, { escape: plain }),
  };
}
