/**
 * The services of the product with their ports (the table in the README's "What runs"). A port is stated here, never derived from
 * a service's position, so adding or reordering services moves nothing. Each is overridable by `<NAME>_PORT`.
 */
export const SERVICE_PORTS = {
  "url-shortener": 3001,
  "text-toolkit": 3002,
  "currency-exchange": 3003,
  "public-holidays": 3004,
  geocoding: 3005,
  "time-zone": 3006,
  summarization: 3007,
  embeddings: 3008,
  "pdf-generation": 3009,
  "webhook-relay": 3010,
  "email-sending": 3011,
  ocr: 3012,
  "video-analytics": 3013,
  news: 3014,
  "search-results": 3015,
  "real-estate": 3016,
  "product-data": 3017,
  "company-data": 3018,
} as const;

export type ServiceName = keyof typeof SERVICE_PORTS;

export const SERVICE_NAMES = Object.keys(SERVICE_PORTS) as ServiceName[];

/**
 * The template a new service is copied from (services/_template). It is built and tested like a service but is not
 * part of the product: never deployed by the all-in-one start, never subscribed to by "*", never billed.
 */
export const TEMPLATE_SERVICE = "_template";
export const TEMPLATE_PORT = 3099;

/** Any app built through a service manifest: a product service or the template. */
export type AppName = ServiceName | typeof TEMPLATE_SERVICE;

export const DEFAULT_ADMIN_PORT = 3000;

export function defaultPort(service: AppName): number {
  return service === TEMPLATE_SERVICE ? TEMPLATE_PORT : SERVICE_PORTS[service];
}

/** "text-toolkit" -> "TEXT_TOOLKIT", the prefix of a service's own environment variables. */
export function envPrefix(service: string): string {
  return service.replace(/^_+/, "").toUpperCase().replace(/-/g, "_");
}
