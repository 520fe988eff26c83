import { defineService } from "@apiplat/service-kit";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { abstractiveSetup, locateAbstractiveModel } from "./engine/abstractive-model.js";
import { createPageReader } from "./engine/page-reader.js";
import { bulletPointRoutes } from "./routes/bullet-points.js";
import { keywordRoutes } from "./routes/keywords.js";
import { summarizeRoutes } from "./routes/summarize.js";
import { readSettings, type SummarizationSettings } from "./settings.js";

/** 100,000 words of prose are about 700 KB of JSON; 2 MiB leaves room for long words and escapes. */
const BODY_LIMIT = 2 * 1024 * 1024;

export default defineService<SummarizationSettings>({
  name: "summarization",
  description: "Extractive summaries, bullet points and key phrases of text, web pages and PDFs in nine languages. Inputs are never logged or stored.",
  settings: readSettings,
  bodyLimit: BODY_LIMIT,
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, background }) {
    const outbound = createOutboundClient({ allowCidrs: platform.config.outboundAllowCidrs });
    background({ name: "outbound client", start() {}, stop: () => outbound.close() });
    const pages = createPageReader(outbound, { timeoutMs: settings.fetchTimeoutMs, maxBytes: settings.fetchMaxBytes });
    const abstractiveModel = locateAbstractiveModel(settings.modelsDir, settings.abstractiveModel);
    // This build has no transformers.js runtime, so mode abstractive always answers 503; the operator learns why here.
    app.log.warn({ model: abstractiveModel.name, missing: abstractiveModel.missing }, abstractiveSetup(abstractiveModel));
    await app.register(summarizeRoutes, { pages, abstractiveModel, settings });
    await app.register(bulletPointRoutes, { pages, settings });
    await app.register(keywordRoutes, { pages, settings });
  },
});
