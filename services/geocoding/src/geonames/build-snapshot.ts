/**
 * Builds the index from the GeoNames files and saves its snapshot, then exits.
 * loadGeocodingIndex runs it in a child process: building allocates several times what the
 * index keeps, and that memory leaves with the child instead of staying in the service's RSS.
 *   tsx src/geonames/build-snapshot.ts <placesFile> <admin1File> <localeDir> <snapshotFile>
 */
import { readGazetteerSource } from "./geonames-files.js";
import { writeSnapshot } from "./index-snapshot.js";
import { Gazetteer } from "../domain/gazetteer.js";

const [placesFile, admin1File, localeDir, snapshotFile] = process.argv.slice(2);
if (!snapshotFile) {
  console.error("usage: build-snapshot.ts <placesFile> <admin1File> <localeDir> <snapshotFile>");
  process.exit(2);
}
writeSnapshot(snapshotFile, Gazetteer.build(readGazetteerSource({ placesFile, admin1File, localeDir })));
