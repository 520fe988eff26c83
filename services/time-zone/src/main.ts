import { runService } from "@apiplat/service-kit";
import { buildApp } from "./app.js";

await runService("time-zone", buildApp);
