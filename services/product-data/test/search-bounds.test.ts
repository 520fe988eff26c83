/**
 * The bounds of q over HTTP: each at its edge, the attacks that once stalled the service (prefix floods) or failed it
 * (32 and more excluded prefixes), and excluded prefixes excluding.
 */
import { QUERY_BOUNDS } from "@apiplat/catalogue";
import { describeSearchBounds } from "@apiplat/testing/search-bounds-suite";
import { startProductData } from "./helpers.js";

describeSearchBounds({
  start: startProductData,
  route: "/search?limit=100",
  bounds: { ...QUERY_BOUNDS, maxLength: 200 },
  exclusion: { word: "coffee", prefix: "gro" },
});
