import { Resolver } from "node:dns/promises";
import { defineService, type ServiceContext } from "@apiplat/service-kit";
import { createOutboundClient, type OutboundClient } from "@apiplat/outbound-guard";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "@apiplat/webhook-delivery";
import { domainOf, parseAddress } from "./domain/addresses.js";
import { platformDomains, type PlatformDomains } from "./domain/dns-records.js";
import { LinkSigner } from "./domain/links.js";
import { ReturnPaths } from "./domain/verp.js";
import { SharedSender } from "./domain/shared-sender.js";
import { MAX_ATTACHMENT_BYTES } from "./domain/message.js";
import { EventRecorder } from "./delivery/events.js";
import { InboundListener, ReportApplier } from "./delivery/inbound.js";
import { LocalSink } from "./delivery/local-sink.js";
import { DeliveryWorker } from "./delivery/queue-worker.js";
import { smtpRelay, type MailRelay } from "./delivery/relay.js";
import { SigningKeys } from "./delivery/signing-keys.js";
import { Submission } from "./app/submission.js";
import { TrackedLinkCheck } from "./delivery/tracked-links.js";
import { urlSafety } from "./delivery/url-safety.js";
import { WebhookSender } from "./delivery/webhook-sender.js";
import { domainRoutes, type DnsResolver } from "./routes/domains.js";
import { messageRoutes } from "./routes/messages.js";
import { publicRoutes } from "./routes/public.js";
import { recipientRoutes } from "./routes/recipients.js";
import { sendRoutes } from "./routes/send.js";
import { templateRoutes } from "./routes/templates.js";
import { webhookRoutes } from "./routes/webhooks.js";
import { readSettings, type EmailSettings } from "./settings.js";

/** What tests and benchmarks may replace. */
export interface EmailInject {
  dnsResolver: DnsResolver;
  random: () => number;
  webhookRetryPolicy: RetryPolicy;
}

/** 25 MB of attachments is 33.3 MB of base64, plus the rest of the JSON. */
type EmailContext = ServiceContext<EmailSettings, EmailInject>;

const BODY_LIMIT = Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 2 * 1024 * 1024;

export default defineService<EmailSettings, EmailInject>({
  name: "email-sending",
  description: "Transactional and marketing email: templates, attachments, tracking, status webhooks, bounces and suppression.",
  settings: readSettings,
  ownSchema: true,
  migrations: new URL("../migrations", import.meta.url),
  bodyLimit: BODY_LIMIT,
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build(context) {
    const { app, platform, settings, inject, background, readiness } = context;
    const { db, now, config } = platform;
    const defaultFrom = parseAddress(settings.defaultFrom)!;
    const defaultDomain = domainOf(defaultFrom.address);
    const domains = platformDomains(defaultDomain);
    const links = new LinkSigner(settings.secret, settings.publicBaseUrl);
    const returnPaths = new ReturnPaths(settings.secret);
    const keys = new SigningKeys(db, settings.secret, defaultDomain, domains, now);
    const random = inject.random ?? Math.random;
    const outbound = createOutboundClient({ allowCidrs: config.outboundAllowCidrs });

    const webhooks = new WebhookSender({
      db,
      outbound,
      log: app.log,
      now,
      random,
      retryPolicy: inject.webhookRetryPolicy ?? DEFAULT_RETRY_POLICY,
      pollMs: 1_000,
      concurrency: 16,
      timeoutMs: 10_000,
    });
    const events = new EventRecorder(db, now, () => webhooks.kick());

    const sink = settings.smtpUrl ? null : new LocalSink(settings.outboxDir, BODY_LIMIT);
    let relay: MailRelay | null = settings.smtpUrl ? smtpRelay({ url: settings.smtpUrl, connections: settings.smtpConnections }) : null;
    const worker = new DeliveryWorker({
      db,
      relay: () => relay!,
      events,
      keys,
      links,
      returnPaths,
      log: app.log,
      now,
      random,
      concurrency: settings.deliveryConcurrency,
      leaseMs: settings.leaseMs,
      pollMs: settings.pollMs,
      retryBaseMs: settings.retryBaseMs,
      retryWindowMs: settings.retryWindowMs,
    });
    const sharedSender = new SharedSender(settings.secret, defaultDomain);
    const trackedLinks = new TrackedLinkCheck(await urlSafety(settings, app.log, background));
    const submission = new Submission({ db, now, defaultFrom, defaultDomain, sharedSender, onQueued: () => worker.kick(), trackedLinks });
    const applier = new ReportApplier(db, events, returnPaths, settings.feedbackAddress, app.log);
    const inbound = new InboundListener(applier, settings.inboundHost, settings.inboundPort, app.log);
    app.decorate("emailDelivery", { inbound, sink, worker, relay: () => relay });
    await registerRoutes(context, { submission, keys, domains, defaultDomain, outbound, links, events, onEvent: () => webhooks.kick() });

    logDkimRecordAtStart(context, keys);
    if (sink) useLocalSink(context, sink, (local) => (relay = local));
    else readiness("smtp_relay", async () => relay!.verify());
    background({ name: "delivery queue worker", start: () => worker.start(), stop: () => worker.stop() });
    background({ name: "inbound SMTP listener", start: () => inbound.start(), stop: () => inbound.stop() });
    readiness("inbound_smtp", async () => inbound.listening());
    background({ name: "status webhook sender", start: () => webhooks.start(), stop: () => webhooks.stop() });
    background({
      name: "SMTP pool and outbound client",
      start: () => {},
      stop: async () => {
        relay?.close();
        await outbound.close();
      },
    });
  },
});

/** What the route modules need beside the platform's database and clock. */
interface RouteParts {
  submission: Submission;
  keys: SigningKeys;
  domains: PlatformDomains;
  defaultDomain: string;
  outbound: OutboundClient;
  links: LinkSigner;
  events: EventRecorder;
  /** A message's status changed: the status webhooks look at once. */
  onEvent: () => void;
}

async function registerRoutes({ app, platform, inject }: EmailContext, parts: RouteParts): Promise<void> {
  const { db, now } = platform;
  const { submission, keys, domains, defaultDomain, outbound, links, events, onEvent } = parts;
  await app.register(sendRoutes, { db, now, submission });
  await app.register(messageRoutes, { db, now, onEvent });
  await app.register(domainRoutes, {
    db,
    now,
    keys,
    resolver: inject.dnsResolver ?? new Resolver({ timeout: 3_000, tries: 2 }),
    platform: domains,
    defaultDomain,
    maxDomainsPerAccount: 50,
  });
  await app.register(templateRoutes, { db, now, maxTemplatesPerAccount: 1_000 });
  await app.register(recipientRoutes, { db, now });
  await app.register(webhookRoutes, { db, now, checkUrl: (url, field) => outbound.check(url, field), maxWebhooksPerAccount: 20 });
  await app.register(publicRoutes, { db, links, events, now });
}

/** The default sending domain has its key from the first start on; its DNS record is logged for the operator. */
function logDkimRecordAtStart({ app, background }: EmailContext, keys: SigningKeys): void {
  background({
    name: "dkim-key of the default sending domain",
    start: async () => {
      const own = await keys.ensurePlatformDomain();
      app.log.info(
        { name: `${own.dkim_selector}._domainkey.${own.domain}`, type: "TXT", value: `v=DKIM1; k=rsa; p=${own.dkim_public_key}` },
        "DKIM record to publish for the default sending domain",
      );
    },
    stop: () => {},
  });
}

/** Without SMTP_URL, every message goes to the local sink: the relay points at it once it listens. */
function useLocalSink({ app, settings, background, readiness }: EmailContext, sink: LocalSink, useRelay: (relay: MailRelay) => void): void {
  background({
    name: "local SMTP sink",
    start: async () => {
      await sink.start();
      useRelay(smtpRelay({ url: sink.url, connections: settings.smtpConnections, isLocalSink: true, description: `local sink (${sink.outboxDir})` }));
      app.log.warn(
        { outbox: sink.outboxDir },
        `No SMTP_URL: every message goes to the local SMTP sink and is stored as an .eml file under ${sink.outboxDir}; nothing reaches a real inbox.`,
      );
    },
    stop: () => sink.stop(),
  });
  readiness("smtp_local_sink_no_real_delivery", async () => sink.listening());
}

declare module "fastify" {
  interface FastifyInstance {
    /** The delivery machinery, for tests and the /ready detail: ports of the inbound listener and the local sink. */
    emailDelivery: { inbound: InboundListener; sink: LocalSink | null; worker: DeliveryWorker; relay: () => MailRelay | null };
  }
}
