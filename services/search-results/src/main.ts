import { runService } from "@apiplat/service-kit";
import service from "./service.js";

await runService(service);
