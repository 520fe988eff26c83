import { createServer, connect, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createRedisStore, type KeyValueStore } from "../src/index.js";

const REDIS_HOST = "127.0.0.1";
const REDIS_PORT = 6379;

/** A TCP relay in front of the real Redis that can be cut, as a network outage or a Redis restart would. */
async function startRelay(): Promise<{ url: string; cut: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(REDIS_PORT, REDIS_HOST);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

let store: KeyValueStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe("Redis store during an outage", () => {
  it("unsubscribes at once instead of queueing the command until Redis returns", async () => {
    const relay = await startRelay();
    store = await createRedisStore(relay.url, { keyPrefix: `test:outage:${process.pid}:` });
    const unsubscribe = await store.subscribe("changes", () => {});
    await relay.cut();
    await new Promise((resolve) => setTimeout(resolve, 50));

    const started = Date.now();
    await unsubscribe();
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("rejects commands at once rather than waiting", async () => {
    const relay = await startRelay();
    store = await createRedisStore(relay.url, { keyPrefix: `test:outage:${process.pid}:` });
    expect(await store.incrBy("count", 2, 60)).toBe(2);
    await relay.cut();
    await new Promise((resolve) => setTimeout(resolve, 50));

    const started = Date.now();
    await expect(store.incrBy("count", 1, 60)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("after close, unsubscribing and closing again are no-ops and commands are refused", async () => {
    const closing = await createRedisStore(`redis://${REDIS_HOST}:${REDIS_PORT}`, { keyPrefix: `test:closed:${process.pid}:` });
    const unsubscribe = await closing.subscribe("changes", () => {});
    await closing.close();
    await expect(unsubscribe()).resolves.toBeUndefined();
    await expect(closing.close()).resolves.toBeUndefined();
    await expect(closing.get("anything")).rejects.toThrow();
  });

  it("subscriptions made at once on a new store share one connection and all receive their messages", async () => {
    store = await createRedisStore(`redis://${REDIS_HOST}:${REDIS_PORT}`, { keyPrefix: `test:concurrent:${process.pid}:` });
    const received: string[] = [];
    await Promise.all(["a", "b", "c"].map((channel) => store!.subscribe(channel, (message) => received.push(`${channel}:${message}`))));
    await Promise.all(["a", "b", "c"].map((channel) => store!.publish(channel, "hello")));
    await expect.poll(() => [...received].sort()).toEqual(["a:hello", "b:hello", "c:hello"]);
  });

  it("delivers published messages to every handler of the channel until each unsubscribes", async () => {
    store = await createRedisStore(`redis://${REDIS_HOST}:${REDIS_PORT}`, { keyPrefix: `test:pubsub:${process.pid}:` });
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = await store.subscribe("news", (message) => first.push(message));
    await store.subscribe("news", (message) => second.push(message));
    await store.publish("news", "one");
    await expect.poll(() => second).toEqual(["one"]);
    await stopFirst();
    await store.publish("news", "two");
    await expect.poll(() => second).toEqual(["one", "two"]);
    expect(first).toEqual(["one"]);
  });
});
