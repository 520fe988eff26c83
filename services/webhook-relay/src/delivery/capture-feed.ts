import type { PlatformDeps } from "@apiplat/service-kit";

type KeyValueStore = PlatformDeps["kv"];

/**
 * What is published for each capture: its position (the SSE event id), the capture as every reader
 * sees it, and its forwarding state, which only the owner's streams show.
 */
export interface CaptureEvent {
  seq: number;
  capture: object;
  forwarding: object | null;
}

const CHANNEL_PREFIX = "webhook-relay:inbox:";

/**
 * Captures fan out through the platform's pub/sub (Redis across replicas, in-process without REDIS_URL),
 * so a stream opened on one replica sees requests captured on any other.
 */
export class CaptureFeed {
  constructor(private readonly kv: Pick<KeyValueStore, "publish" | "subscribe">) {}

  /** Several captures of one inbox go as one message (a JSON array, in capture order). */
  publish(inboxId: string, events: CaptureEvent[]): Promise<void> {
    return this.kv.publish(CHANNEL_PREFIX + inboxId, JSON.stringify(events));
  }

  listen(inboxId: string, handler: (event: CaptureEvent) => void): Promise<() => Promise<void>> {
    return this.kv.subscribe(CHANNEL_PREFIX + inboxId, (message) => {
      for (const event of JSON.parse(message) as CaptureEvent[]) handler(event);
    });
  }
}
