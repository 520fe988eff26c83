import Mustache from "mustache";

/** Saved templates: Mustache, logic-less. `{{name}}` is HTML-escaped in the HTML part; `{{{name}}}` or `{{& name}}` is raw. */

export const TEMPLATE_NAME_PATTERN = "^[a-z0-9][a-z0-9_-]{0,63}$";
export const TEMPLATE_PART_MAX_LENGTH = 512 * 1024;

/** What a saved template may be: checked when it is saved, so rendering never meets a deeper or larger one. */
const TEMPLATE_LIMITS = {
  /** Sections ({{#x}} or {{^x}}) inside sections. */
  maxDepth: 16,
  /** Every {{…}} counts, a section's opening and closing tag as two. */
  maxTags: 10_000,
  /** A variable name, dots included. */
  maxNameLength: 200,
} as const;

/** What one rendering (subject, HTML and text together) may cost before it is refused. */
const RENDER_BUDGET = {
  /** A step is one tag visited or one pass through a section's content. */
  steps: 250_000,
  /** Characters of output across the three parts (5 MiB, the HTML limit of POST /send). */
  outputChars: 5 * 1024 * 1024,
  /**
   * A backstop for the other two, in CPU time (wall time would refuse good templates on a busy machine): rendering
   * is synchronous, so the process's CPU is its CPU; read every CPU_CHECK_STEPS steps.
   */
  cpuMs: 1_000,
} as const;

/** Versions one template keeps; a change beyond it is refused until older versions are deleted. */
export const MAX_TEMPLATE_VERSIONS = 50;

export type Variables = Record<string, unknown>;

type Token = [string, string, number, number, Token[]?, number?];

/** Parses without Mustache's shared cache, which would keep every template ever seen in memory. */
function uncachedWriter(): Mustache.Writer {
  const writer = new Mustache.Writer();
  (writer as unknown as { templateCache: undefined }).templateCache = undefined;
  return writer;
}

const parser = uncachedWriter();

function tokensOf(template: string): Token[] {
  return parser.parse(template) as unknown as Token[];
}

const formatted = (n: number) => n.toLocaleString("en-US");

/**
 * Why a template part may not be saved, or null when it may: it must parse as Mustache and stay within
 * TEMPLATE_LIMITS. The walk over nested sections uses its own stack, so a hostile depth costs no recursion.
 */
export function templateIssue(template: string): string | null {
  let tokens: Token[];
  try {
    tokens = tokensOf(template);
  } catch (error) {
    return `is not a valid Mustache template: ${error instanceof Error ? error.message : String(error)}`;
  }
  let tags = 0;
  let deepest = 0;
  const pending: { tokens: Token[]; depth: number }[] = [{ tokens, depth: 0 }];
  while (pending.length > 0) {
    const { tokens: list, depth } = pending.pop()!;
    deepest = Math.max(deepest, depth);
    for (const token of list) {
      if (token[0] === "text") continue;
      tags += token[4] ? 2 : 1;
      if (token[1].length > TEMPLATE_LIMITS.maxNameLength) {
        return `has a tag name of ${formatted(token[1].length)} characters; a name may have at most ${TEMPLATE_LIMITS.maxNameLength}`;
      }
      if (token[4]) pending.push({ tokens: token[4], depth: depth + 1 });
    }
  }
  if (deepest > TEMPLATE_LIMITS.maxDepth) {
    return `has sections nested ${formatted(deepest)} deep; sections may be nested at most ${TEMPLATE_LIMITS.maxDepth} deep`;
  }
  if (tags > TEMPLATE_LIMITS.maxTags) {
    return `has ${formatted(tags)} tags; a template part may have at most ${formatted(TEMPLATE_LIMITS.maxTags)} (a section's opening and closing tags count as two)`;
  }
  return null;
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

/** How often the CPU clock is read: reading it costs about a microsecond, a step a fraction of that. */
const CPU_CHECK_STEPS = 1_000;

type BudgetName = "steps" | "output" | "time";

/** A rendering went over RENDER_BUDGET: nothing of it is used. */
export class RenderBudgetExceeded extends Error {
  constructor(readonly budget: BudgetName) {
    super(`render budget exceeded: ${budget}`);
  }
}

/** The budget a rendering went over, in words, and what a sender can do about it. */
export function describeBudget(budget: BudgetName): { bound: string; remedy: string } {
  if (budget === "steps") {
    return {
      bound: `its render budget of ${formatted(RENDER_BUDGET.steps)} steps (each tag and each pass through a section is a step)`,
      remedy: "send shorter lists or nest fewer sections over them",
    };
  }
  if (budget === "output") {
    return {
      bound: `its output budget of ${formatted(RENDER_BUDGET.outputChars)} characters (5 MiB), the most one message may carry`,
      remedy: "send shorter values",
    };
  }
  return { bound: `its render budget of ${formatted(RENDER_BUDGET.cpuMs)} ms of CPU time`, remedy: "send shorter lists or simplify the template" };
}

/**
 * Mustache's own renderer with a meter: every pass through tokens spends steps, every value written spends output,
 * and the CPU clock is read between steps. Recursion follows section nesting, which saving bounds at 16.
 */
class BudgetedWriter extends Mustache.Writer {
  private steps = 0;
  private nextCpuCheck = CPU_CHECK_STEPS;
  private output = 0;
  private readonly cpuAtStart = process.cpuUsage();

  constructor() {
    super();
    (this as unknown as { templateCache: undefined }).templateCache = undefined;
  }

  override renderTokens(...args: Parameters<Mustache.Writer["renderTokens"]>): string {
    this.steps += 1 + args[0].length;
    if (this.steps > RENDER_BUDGET.steps) throw new RenderBudgetExceeded("steps");
    if (this.steps >= this.nextCpuCheck) {
      this.nextCpuCheck = this.steps + CPU_CHECK_STEPS;
      const used = process.cpuUsage(this.cpuAtStart);
      if ((used.user + used.system) / 1000 > RENDER_BUDGET.cpuMs) throw new RenderBudgetExceeded("time");
    }
    return super.renderTokens(...args);
  }

  override escapedValue(...args: Parameters<Mustache.Writer["escapedValue"]>): string {
    return this.written(super.escapedValue(...args));
  }

  override unescapedValue(...args: Parameters<Mustache.Writer["unescapedValue"]>): string {
    return this.written(super.unescapedValue(...args));
  }

  override rawValue(...args: Parameters<Mustache.Writer["rawValue"]>): string {
    return this.written(super.rawValue(...args));
  }

  private written(value: unknown): string {
    if (value === undefined) return value as unknown as string;
    const text = String(value);
    this.output += text.length;
    if (this.output > RENDER_BUDGET.outputChars) throw new RenderBudgetExceeded("output");
    return text;
  }
}

const plain = (value: unknown) => String(value);

/**
 * HTML escaping applies to the HTML part only: the subject and the text part are not HTML. The three parts share one
 * RENDER_BUDGET; going over it throws RenderBudgetExceeded and nothing is returned.
 */
export function renderTemplate(parts: TemplateParts, variables: Variables): RenderedParts {
  const writer = new BudgetedWriter();
  return {
    subject: writer.render(parts.subject, variables, {}, { escape: plain }).replace(/[\r\n]+/g, " "),
    html: writer.render(parts.html, variables, {}),
    text: parts.text === null ? null : writer.render(parts.text, variables, {}, { escape: plain }),
  };
}
