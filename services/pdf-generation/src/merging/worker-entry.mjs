// Worker threads start from plain JavaScript: this registers tsx so that the TypeScript worker loads the same way
// under `npm start`, tests and benchmarks.
import { register } from "tsx/esm/api";

register();
const { default: merge, warm } = await import("./merge-worker.ts");
export default merge;
export { warm };
