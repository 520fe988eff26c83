// Worker threads start from plain JavaScript: this registers tsx so that the TypeScript worker loads the same way
// under `npm start`, tests and benchmarks.
import { register } from "tsx/esm/api";

register();
const { default: embed } = await import("./worker.ts");
export default embed;
