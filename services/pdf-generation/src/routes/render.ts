import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { TSchema } from "typebox";
import { firstHeading, markdownToHtml } from "../domain/markdown.js";
import { assertWithinPageLimit, pageLimitFor } from "../domain/page-limit.js";
import { resolveFilename } from "../domain/page-setup.js";
import type { PdfRenderer, RenderOptions, RenderSource } from "../browser/renderer.js";
import { DEFAULTS, type Plan } from "../domain/limits.js";
import { budgetedTimeoutMs, explainBudgetTimeout, type RenderBudget } from "../domain/render-budget.js";
import { FromHtmlBody, FromMarkdownBody, FromUrlBody, ResponseQuery, pdfAnswer, type RenderOptionsBody, type ResponseFormat } from "../schemas.js";
import { toApiError } from "./errors.js";
import { sendPdf } from "./pdf-reply.js";
import { normalizeOrigins, renderOptionsFrom } from "./render-request.js";

export interface RenderRoutesOptions {
  renderer: PdfRenderer;
  /** The longest a job may hold a browser page, per plan. */
  renderBudgetMs: Record<Plan, number>;
  /** The stylesheet of highlighted code in Markdown documents. */
  highlightTheme: string;
}

const PDF_DESCRIPTION =
  "Answers with the PDF bytes (application/pdf, Content-Disposition with the file name, X-Page-Count, X-Page-Limit and " +
  "X-Render-Time-Ms headers), or with ?response=json the envelope below with the PDF in base64.";

function routeSchema<Body extends TSchema>(summary: string, body: Body) {
  return { summary, description: PDF_DESCRIPTION, body, querystring: ResponseQuery, response: { 200: pdfAnswer(`${summary}: the PDF`) } };
}

/** POST /from-html, /from-markdown and /from-url: a document or a web page rendered by Chromium. */
export const renderRoutes: FastifyPluginAsyncTypebox<RenderRoutesOptions> = async (app, { renderer, renderBudgetMs, highlightTheme }) => {
  const respond = async (request: FastifyRequest, reply: FastifyReply, body: RenderOptionsBody, source: RenderSource, options: RenderOptions) => {
    const plan = request.subscriber.plan;
    const budget: RenderBudget = { plan, budgetMs: renderBudgetMs[plan], requestedMs: options.timeoutMs, budgets: renderBudgetMs };
    try {
      const result = await renderer.render(source, { ...options, timeoutMs: budgetedTimeoutMs(budget) }).catch((error: unknown) => {
        throw explainBudgetTimeout(error, budget);
      });
      assertWithinPageLimit(result.pageCount, plan);
      const { response } = request.query as ResponseFormat;
      return sendPdf(reply, { ...result, filename: resolveFilename(body.filename), pageLimit: pageLimitFor(plan) }, response);
    } catch (error) {
      throw toApiError(error, source.kind === "web");
    }
  };

  app.post("/from-html", { schema: routeSchema("Render an HTML document to PDF", FromHtmlBody) }, async (request, reply) => {
    const body = request.body;
    const options = withDomainErrors(() => renderOptionsFrom(body));
    const source: RenderSource = {
      kind: "document",
      html: body.html,
      javascript: body.javascript ?? false,
      allowedOrigins: normalizeOrigins(body.allowed_origins),
    };
    return respond(request, reply, body, source, options);
  });

  app.post("/from-markdown", { schema: routeSchema("Render Markdown to a styled PDF", FromMarkdownBody) }, async (request, reply) => {
    const body = request.body;
    const title = body.title ?? firstHeading(body.markdown);
    const options = withDomainErrors(() => renderOptionsFrom(body, title));
    const document = { title: title ?? options.fallbackTitle, lang: body.lang ?? DEFAULTS.lang };
    const html = markdownToHtml(body.markdown, document, highlightTheme);
    const source: RenderSource = { kind: "document", html, javascript: false, allowedOrigins: normalizeOrigins(body.allowed_origins) };
    return respond(request, reply, body, source, options);
  });

  app.post("/from-url", { schema: routeSchema("Render a web page to PDF", FromUrlBody) }, async (request, reply) => {
    const body = request.body;
    const options = withDomainErrors(() => renderOptionsFrom(body));
    const source: RenderSource = {
      kind: "web",
      url: body.url,
      javascript: body.javascript ?? true,
      waitUntil: body.wait_until ?? DEFAULTS.waitUntil,
      waitFor: body.wait_for,
      delayMs: body.delay_ms ?? 0,
    };
    return respond(request, reply, body, source, options);
  });
};

function withDomainErrors<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw toApiError(error);
  }
}
