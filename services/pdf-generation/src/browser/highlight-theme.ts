import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** highlight.js's GitHub theme: the colours of code blocks in Markdown documents. */
export function readHighlightTheme(): Promise<string> {
  return readFile(require.resolve("highlight.js/styles/github.css"), "utf8");
}
