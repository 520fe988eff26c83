import { runService } from "@apiplat/service-kit";
import { service } from "./app.js";

await runService("ocr", service.build);
