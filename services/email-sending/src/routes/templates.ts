import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { Type } from "typebox";
import { textFromHtml } from "../domain/message.js";
import { checkSyntax, missingVariables, renderTemplate, requiredVariables, type TemplateParts } from "../domain/templates.js";
import * as S from "../schemas.js";
import { countTemplates, deleteTemplate, findTemplate, listTemplates, saveTemplateVersion, type TemplateSummary } from "../store/templates.js";

export interface TemplateRoutesOptions {
  db: Database;
  now: () => Date;
  maxTemplatesPerAccount: number;
}

function partsOf(row: TemplateSummary): TemplateParts {
  return { subject: row.subject, html: row.html, text: row.text_body };
}

function presentParts(parts: TemplateParts): string[] {
  return [parts.subject, parts.html, ...(parts.text === null ? [] : [parts.text])];
}

function view(row: TemplateSummary) {
  return {
    name: row.name,
    version: row.version,
    subject: row.subject,
    html: row.html,
    text: row.text_body,
    variables: [...new Set(presentParts(partsOf(row)).flatMap(requiredVariables))],
    created_at: row.first_created_at.toISOString(),
    updated_at: row.created_at.toISOString(),
  };
}

/** Each part must parse as Mustache: a 400 naming the part and Mustache's reason. */
function checkParts(parts: { subject: string; html: string; text?: string }): void {
  const issues = (["subject", "html", "text"] as const).flatMap((field) => {
    const value = parts[field];
    const problem = value === undefined ? null : checkSyntax(value);
    return problem ? [{ field, issue: `is not a valid Mustache template: ${problem}` }] : [];
  });
  if (issues.length > 0) throw errors.validationMany(issues);
}

export const templateRoutes: FastifyPluginAsyncTypebox<TemplateRoutesOptions> = async (app, { db, now, maxTemplatesPerAccount }) => {
  const load = async (accountId: string, name: string, version?: number) => {
    const row = await findTemplate(db, accountId, name, version);
    if (!row) throw errors.notFound(version ? `No version ${version} of the template ${name}.` : `No template named ${name}.`);
    return row;
  };

  app.post(
    "/templates",
    {
      schema: {
        summary: "Save a template",
        description: "Saves version 1 of a named template (Mustache: subject, HTML, optional text). {{x}} is HTML-escaped in the HTML part; {{{x}}} and {{& x}} are raw.",
        body: S.TemplateBody,
        response: { 201: successSchema(S.Template) },
      },
    },
    async (request, reply) => {
      const accountId = request.subscriber.accountId;
      const { name, subject, html, text } = request.body;
      checkParts({ subject, html, text });
      if ((await countTemplates(db, accountId)) >= maxTemplatesPerAccount) {
        throw errors.conflict(`This account already keeps ${maxTemplatesPerAccount} templates, the most it may keep.`);
      }
      const version = await saveTemplateVersion(db, { account_id: accountId, name, subject, html, text_body: text ?? null, created_at: now() }, true);
      if (version === null) throw errors.conflict(`A template named ${name} exists; change it with PUT /templates/${name}.`);
      return reply.code(201).send(ok(view(await load(accountId, name))));
    },
  );

  app.get(
    "/templates",
    { schema: { summary: "List templates", description: "The newest version of each template, by name.", response: { 200: successSchema(Type.Object({ templates: Type.Array(S.Template) })) } } },
    async (request) => ok({ templates: (await listTemplates(db, request.subscriber.accountId)).map(view) }),
  );

  app.get(
    "/templates/:name",
    { schema: { summary: "Read a template", description: "The newest version, or ?version=N.", params: S.TemplateParams, querystring: S.TemplateQuery, response: { 200: successSchema(S.Template) } } },
    async (request) => ok(view(await load(request.subscriber.accountId, request.params.name, request.query.version))),
  );

  app.put(
    "/templates/:name",
    {
      schema: {
        summary: "Change a template",
        description: "Saves a new version; earlier versions stay readable (?version=N) and sendable (version in /send/template).",
        params: S.TemplateParams,
        body: S.TemplateUpdate,
        response: { 200: successSchema(S.Template) },
      },
    },
    async (request) => {
      const accountId = request.subscriber.accountId;
      const { subject, html, text } = request.body;
      checkParts({ subject, html, text });
      const version = await saveTemplateVersion(db, { account_id: accountId, name: request.params.name, subject, html, text_body: text ?? null, created_at: now() }, false);
      if (version === null) throw errors.notFound(`No template named ${request.params.name}.`);
      return ok(view(await load(accountId, request.params.name)));
    },
  );

  app.delete(
    "/templates/:name",
    { schema: { summary: "Delete a template", description: "Deletes every version. Messages already sent keep their content.", params: S.TemplateParams, response: { 204: Type.Null() } } },
    async (request, reply) => {
      if (!(await deleteTemplate(db, request.subscriber.accountId, request.params.name))) throw errors.notFound(`No template named ${request.params.name}.`);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/templates/:name/render",
    {
      schema: {
        summary: "Preview a template",
        description: "Renders subject, HTML and text with the variables, exactly as /send/template would, without sending.",
        params: S.TemplateParams,
        body: S.RenderBody,
        response: { 200: successSchema(S.Rendered) },
      },
    },
    async (request) => {
      const row = await load(request.subscriber.accountId, request.params.name, request.body.version);
      const variables = request.body.variables ?? {};
      const missing = missingVariables(presentParts(partsOf(row)), variables);
      if (missing.length > 0) {
        throw errors.validationMany(missing.map((v) => ({ field: `variables.${v}`, issue: `is required by the template ${row.name}` })));
      }
      const rendered = renderTemplate(partsOf(row), variables);
      return ok({ subject: rendered.subject, html: rendered.html, text: rendered.text ?? textFromHtml(rendered.html) });
    },
  );
};
