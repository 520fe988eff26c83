import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema, type ServiceApp } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { Type } from "typebox";
import { textFromHtml } from "../domain/message.js";
import {
  MAX_TEMPLATE_VERSIONS,
  RenderBudgetExceeded,
  describeBudget,
  missingVariables,
  renderTemplate,
  requiredVariables,
  templateIssue,
  type RenderedParts,
  type TemplateParts,
  type Variables,
} from "../domain/templates.js";
import * as S from "../schemas.js";
import {
  countTemplates,
  countVersions,
  deleteTemplate,
  deleteTemplateVersion,
  findTemplate,
  listTemplates,
  saveTemplateVersion,
  type TemplateSummary,
} from "../store/templates.js";

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

/** Each part must parse as Mustache and stay within the template limits: a 400 naming the part and the bound. */
function checkParts(parts: { subject: string; html: string; text?: string }): void {
  const issues = (["subject", "html", "text"] as const).flatMap((field) => {
    const value = parts[field];
    const problem = value === undefined ? null : templateIssue(value);
    return problem ? [{ field, issue: problem }] : [];
  });
  if (issues.length > 0) throw errors.validationMany(issues);
}

/**
 * Renders a saved template for a preview or a send: a missing variable is a 400 naming each one, a rendering over
 * the budget a 422 naming the budget (nothing of it is sent).
 */
export function renderSaved(name: string, parts: TemplateParts, variables: Variables): RenderedParts {
  const missing = missingVariables(presentParts(parts), variables);
  if (missing.length > 0) {
    throw errors.validationMany(
      missing.map((v) => ({ field: `variables.${v}`, issue: `is required by the template ${name}` })),
      `The template ${name} needs ${missing.length === 1 ? "a variable" : "variables"} the request lacks: ${missing.join(", ")}.`,
    );
  }
  try {
    return renderTemplate(parts, variables);
  } catch (error) {
    if (!(error instanceof RenderBudgetExceeded)) throw error;
    const { bound, remedy } = describeBudget(error.budget);
    throw errors.unprocessable(`The template ${name} with these variables goes over ${bound}; ${remedy}.`, [
      { field: "variables", issue: `take the template ${name} over ${bound}` },
    ]);
  }
}

/** The account's template (a given version, else the latest), or a 404 naming it. */
async function loadTemplate(db: Database, accountId: string, name: string, version?: number) {
  const row = await findTemplate(db, accountId, name, version);
  if (!row) throw errors.notFound(version ? `No version ${version} of the template ${name}.` : `No template named ${name}.`);
  return row;
}

export const templateRoutes: FastifyPluginAsyncTypebox<TemplateRoutesOptions> = async (app, options) => {
  addTemplateRoute(app, options);
  listTemplatesRoute(app, options);
  readTemplateRoute(app, options);
  updateTemplateRoute(app, options);
  deleteTemplateRoute(app, options);
  renderTemplateRoute(app, options);
};

function addTemplateRoute(app: ServiceApp, { db, now, maxTemplatesPerAccount }: TemplateRoutesOptions): void {
  app.post(
    "/templates",
    {
      schema: {
        summary: "Save a template",
        description:
          "Saves version 1 of a named template (Mustache: subject, HTML, optional text). {{x}} is HTML-escaped in the HTML part; {{{x}}} and {{& x}} are raw.",
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
      return reply.code(201).send(ok(view(await loadTemplate(db, accountId, name))));
    },
  );
}

function listTemplatesRoute(app: ServiceApp, { db }: TemplateRoutesOptions): void {
  app.get(
    "/templates",
    {
      schema: {
        summary: "List templates",
        description: "The newest version of each template, by name.",
        response: { 200: successSchema(Type.Object({ templates: Type.Array(S.Template) })) },
      },
    },
    async (request) => ok({ templates: (await listTemplates(db, request.subscriber.accountId)).map(view) }),
  );
}

function readTemplateRoute(app: ServiceApp, { db }: TemplateRoutesOptions): void {
  app.get(
    "/templates/:name",
    {
      schema: {
        summary: "Read a template",
        description: "The newest version, or ?version=N.",
        params: S.TemplateParams,
        querystring: S.TemplateQuery,
        response: { 200: successSchema(S.Template) },
      },
    },
    async (request) => ok(view(await loadTemplate(db, request.subscriber.accountId, request.params.name, request.query.version))),
  );
}

function updateTemplateRoute(app: ServiceApp, { db, now }: TemplateRoutesOptions): void {
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
      const name = request.params.name;
      const version = await saveTemplateVersion(
        db,
        { account_id: accountId, name, subject, html, text_body: text ?? null, created_at: now() },
        false,
        MAX_TEMPLATE_VERSIONS,
      );
      if (version === null) {
        if ((await countVersions(db, accountId, name)) === 0) throw errors.notFound(`No template named ${name}.`);
        throw errors.conflict(
          `The template ${name} already keeps ${MAX_TEMPLATE_VERSIONS} versions, the most one template may keep: delete old ones (DELETE /templates/${name}?version=N) or the whole template, then save again.`,
          [{ field: "name", issue: `has ${MAX_TEMPLATE_VERSIONS} versions already, the most one template may keep` }],
        );
      }
      return ok(view(await loadTemplate(db, accountId, request.params.name)));
    },
  );
}

function deleteTemplateRoute(app: ServiceApp, { db }: TemplateRoutesOptions): void {
  app.delete(
    "/templates/:name",
    {
      schema: {
        summary: "Delete a template or one version",
        description: `Deletes every version, or only ?version=N (a template keeps at most ${MAX_TEMPLATE_VERSIONS} versions). Messages already sent keep their content.`,
        params: S.TemplateParams,
        querystring: S.TemplateQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { accountId } = request.subscriber;
      const { name } = request.params;
      const { version } = request.query;
      if (version === undefined) {
        if (!(await deleteTemplate(db, accountId, name))) throw errors.notFound(`No template named ${name}.`);
      } else if (!(await deleteTemplateVersion(db, accountId, name, version))) {
        throw errors.notFound(`No version ${version} of the template ${name}.`);
      }
      return reply.code(204).send(null);
    },
  );
}

function renderTemplateRoute(app: ServiceApp, { db }: TemplateRoutesOptions): void {
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
      const row = await loadTemplate(db, request.subscriber.accountId, request.params.name, request.body.version);
      const rendered = renderSaved(row.name, partsOf(row), request.body.variables ?? {});
      return ok({ subject: rendered.subject, html: rendered.html, text: rendered.text ?? textFromHtml(rendered.html) });
    },
  );
}
