export { MAX_URL_LENGTH, hostAndParents, hostOf, normalizeUrl, type NormalizedUrl } from "@apiplat/url-safety";
