import { runService } from "@apiplat/service-kit";
import { service } from "./app.js";

await runService("geocoding", service.build);
