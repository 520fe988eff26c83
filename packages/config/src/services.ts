/** The eighteen services of the product, their default ports and public host names (CONVENTIONS.md). */
export const SERVICE_NAMES = [
  "url-shortener",
  "text-toolkit",
  "currency-exchange",
  "public-holidays",
  "geocoding",
  "time-zone",
  "summarization",
  "embeddings",
  "pdf-generation",
  "webhook-relay",
  "email-sending",
  "ocr",
  "video-analytics",
  "news",
  "search-results",
  "real-estate",
  "product-data",
  "company-data",
] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

export const FIRST_SERVICE_PORT = 3001;
export const DEFAULT_ADMIN_PORT = 3000;

export function isServiceName(name: string): name is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(name);
}

export function defaultPort(service: ServiceName): number {
  return FIRST_SERVICE_PORT + SERVICE_NAMES.indexOf(service);
}

/** "text-toolkit" -> "TEXT_TOOLKIT", the prefix of a service's own environment variables. */
export function envPrefix(service: string): string {
  return service.toUpperCase().replace(/-/g, "_");
}
