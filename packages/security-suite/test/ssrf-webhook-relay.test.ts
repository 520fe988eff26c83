import type { ServiceUnderTest } from "./support/services.js";
import { until } from "@apiplat/testing";
import { runSsrfSuite } from "./support/ssrf-suite.js";

interface RelayState {
  /** An inbox holding one captured request, for replays. */
  inboxId: string;
  requestId: string;
}

async function createInbox(service: ServiceUnderTest): Promise<string> {
  return (await service.app.inject({ method: "POST", url: "/create", headers: service.headers })).json().data.id;
}

async function capture(service: ServiceUnderTest, inboxId: string): Promise<string> {
  const sent = await service.app.inject({ method: "POST", url: `/h/${inboxId}`, headers: { "content-type": "application/json" }, payload: '{"event":"ping"}' });
  return sent.json().data.request_id;
}

/** The status of the first forwarding attempt of a captured request, once the worker has made it. */
function firstAttemptStatus(service: ServiceUnderTest, inboxId: string, requestId: string): Promise<number> {
  return until(async () => {
    const detail = (await service.app.inject({ method: "GET", url: `/inbox/${inboxId}/requests/${requestId}`, headers: service.headers })).json().data;
    return detail.attempts.length > 0 ? detail.attempts[0].status_code : undefined;
  });
}

// The relay sends to destinations without following redirects: a destination that redirects is answered as received.
runSsrfSuite<RelayState>({
  service: "webhook-relay",
  env: { WEBHOOK_RELAY_POLL_INTERVAL_MS: "20" },
  async prepare(service) {
    const inboxId = await createInbox(service);
    return { inboxId, requestId: await capture(service, inboxId) };
  },
  endpoints: [
    {
      name: "POST /forward/:id",
      field: "url",
      async send(service, _state, url) {
        // A fresh inbox per row, so that each row's delivery is its own.
        const inboxId = await createInbox(service);
        return service.app.inject({ method: "POST", url: `/forward/${inboxId}`, headers: service.headers, payload: { url } });
      },
      redirects: {
        kind: "unfollowed",
        // Setting the destination only stores it: a captured request makes the relay deliver there.
        async reportedStatus(answer, service) {
          const inboxId = answer.json().data.inbox_id;
          return firstAttemptStatus(service, inboxId, await capture(service, inboxId));
        },
      },
    },
    {
      name: "POST /replay/:id/:request_id",
      field: "url",
      send: (service, state, url) =>
        service.app.inject({ method: "POST", url: `/replay/${state.inboxId}/${state.requestId}`, headers: service.headers, payload: { url } }),
      redirects: { kind: "unfollowed", reportedStatus: async (answer) => answer.json().data.status_code },
    },
  ],
});
