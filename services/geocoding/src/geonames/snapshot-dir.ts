import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where built indexes are saved when GEOCODING_SNAPSHOT_DIR does not say. */
export const DEFAULT_SNAPSHOT_DIR = join(tmpdir(), "apiplat-geocoding");
