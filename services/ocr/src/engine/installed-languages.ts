import { access, readdir } from "node:fs/promises";
import { join } from "node:path";
import { NON_LANGUAGE_DATA } from "../domain/languages.js";

/** Language codes with a `<code>.traineddata` file directly in `langPath`. */
export async function listInstalledLanguages(langPath: string): Promise<Set<string>> {
  let names: string[];
  try {
    names = await readdir(langPath);
  } catch {
    return new Set();
  }
  const codes = names
    .filter((name) => name.endsWith(".traineddata"))
    .map((name) => name.slice(0, -".traineddata".length))
    .filter((code) => /^[a-z][a-z0-9_]*$/.test(code) && !NON_LANGUAGE_DATA.has(code));
  return new Set(codes);
}

/** Whether the data of Tesseract's orientation and script detection (osd.traineddata) is in `langPath`. */
export async function hasOrientationData(langPath: string): Promise<boolean> {
  return access(join(langPath, "osd.traineddata")).then(
    () => true,
    () => false,
  );
}
