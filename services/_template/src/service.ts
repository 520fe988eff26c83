import { defineService } from "@apiplat/service-kit";
import { noteRoutes } from "./routes/notes.js";
import { readSettings, type TemplateSettings } from "./settings.js";

export default defineService<TemplateSettings>({
  name: "_template",
  description: "The template every service is copied from: notes kept per account.",
  settings: readSettings,
  // Its tables in a PostgreSQL schema named after it, so that no two services can collide by table name.
  ownSchema: true,
  migrations: new URL("../migrations", import.meta.url),
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings }) {
    await app.register(noteRoutes, { db: platform.db, now: platform.now, maxNotesPerAccount: settings.maxNotesPerAccount });
  },
});
