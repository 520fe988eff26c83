/** Every documented bound of the service, in one place (README "Limits" lists the same values). */
export const LIMITS = {
  /** Largest body a hook URL accepts: 10 MiB. */
  maxBodyBytes: 10 * 1024 * 1024,
  /** Live inboxes one account may hold at once. */
  maxInboxesPerAccount: 1000,
  /**
   * In listings and streams, bodies above this size are left out (fetch the request to get it). It is
   * also the largest body kept in the capture's row; larger ones are kept in parts beside it.
   */
  inlineBodyBytes: 64 * 1024,
  /** GET /inbox/{id}/requests/{rid} shows bodies up to this size; larger ones only through /raw. */
  detailBodyBytes: 1024 * 1024,
  /** Captures per second one inbox accepts (per process), and the burst it may send at once. */
  capturesPerSecond: 10,
  captureBurst: 20,
  defaultResponseBodyChars: 65_536,
  contentTypeChars: 255,
  credentialChars: 128,
  allowlistEntries: 50,
  urlChars: 2048,
  searchChars: 256,
  pageSizeMax: 100,
  pageSizeDefault: 20,
  /** What an SSE client resuming with Last-Event-ID is sent at most before the live feed. */
  resumeBacklog: 1000,
  /** How long the previous signing secret keeps signing after a rotation. */
  secretGraceMs: 24 * 60 * 60 * 1000,
} as const;
