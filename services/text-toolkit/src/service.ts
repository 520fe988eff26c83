import { defineService } from "@apiplat/service-kit";
import { textRoutes } from "./routes/text.js";

/** The route plugin alone, for the bare-Fastify baseline of the benchmarks. */
export { textRoutes as routes };

export default defineService({
  name: "text-toolkit",
  description: "Hashing, UUIDs, case conversion, slugs, text statistics, lorem ipsum and passwords.",
  // Room for 100 KB of text after JSON escaping; the text itself is bounded at 100 KB in the routes.
  bodyLimit: 640 * 1024,
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app }) {
    await app.register(textRoutes);
  },
});
