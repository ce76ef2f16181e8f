// buildServer: the Fastify application, from the declarations. It does not open or migrate the
// database (see start.ts); it receives a ready Kysely instance, so tests and the benchmark can
// choose PGlite in memory, on disk, or PostgreSQL.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import multipart from '@fastify/multipart';
import type { Kysely } from 'kysely';
import { constants } from '../generated/constants.gen.ts';
import openapi from '../generated/openapi.gen.json' with { type: 'json' };
import { entitySchemas } from '../generated/server-operations.gen.ts';
import type { CaptchaVerifier } from '../core/ports/captcha.ts';
import type { ChannelConnector } from '../core/ports/channel.ts';
import type { MessageProvider } from '../core/ports/message.ts';
import type { Database } from '../engine/database.ts';
import type { ComponentHeaders, MessagingHooks, ServerDeps, WhatsAppTemplateGateway } from './context.ts';
import { companySendWindow } from './messaging/send-window.ts';
import { runDueCampaigns } from '../engine/campaigns/index.ts';
import { visitDueFtpFolders } from './messaging/ftp-intake.ts';
import { listeningOrigin } from './http/public-origin.ts';
import { mailScheduledFiles, runDueReportSchedules } from './modules/reportCenter/report-schedules.ts';
import { injectedScreenRunner } from './modules/reportCenter/report-screen-runner.ts';
import { writeScreenFiles } from './modules/reportCenter/report-screens.ts';
import { compactRollups } from '../engine/lifecycle/index.ts';
import { startJobRunner } from './messaging/jobs.ts';
import { expirePromotions } from '../engine/credits.ts';
import { webhookSecrets } from './messaging/webhook-secrets.ts';
import { whatsappTemplateGateway } from './messaging/whatsapp-templates.ts';
import { templateStatusSink } from './modules/templates/status.ts';
import { webhookRoutes } from './webhooks/index.ts';
import { paymentWebhookRoutes } from './webhooks/payments.ts';
import { CONFIRMATION_PATH } from './modules/payments/index.ts';
import type { ReceiptSink } from '../engine/channel-adapter.ts';
import { composePorts, timestampAuthority, type ClosablePaymentGateway } from './composition.ts';
import { registerAuditLog } from './audit/hook.ts';
import { ApiError } from './errors/api-error.ts';
import { registerConsole, trySpaFallback } from './http/console-static.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { frameworkErrors } from './http/framework-errors.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import type { TrustProxy } from './http/trust-proxy.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import type { HandlerMap } from './http/handler.ts';
import { registerOperations } from './http/operations.ts';
import { memoisedSerializers } from './http/serializer-cache.ts';
import { compileValidator, servedSchema } from './http/validation.ts';
import { OutboundPolicy } from './security/outbound-guard.ts';
import { handlers as defaultHandlers } from './modules/index.ts';
import { removeUnusedAttachments } from './modules/help/index.ts';
import { defaultSecretBox, type SecretBox } from './security/secrets.ts';
import { documentSigning, type DocumentSigning } from './signing/index.ts';
import { redirectRateLimit, registerThrottle } from './security/throttle.ts';
import { DEFAULT_THROTTLE, type ThrottleSettings } from './security/throttle-settings.ts';
import { createShortener, type ShortenerOptions } from './modules/shortener/redirect/index.ts';
import { defaultFileStorage, type FileStorage } from './storage/file-storage.ts';

export interface BuildServerOptions {
  db: Kysely<Database>;
  /** Sandbox/demo mode: sandbox-only operations (the outbox) are registered. */
  sandbox?: boolean;
  /** SANDBOX_OUTBOX_OPEN (auth/sandbox-door.ts): the outbox open to this machine without a session; default off. */
  sandboxOutboxOpen?: boolean;
  /** Where connections made on a company's behalf may go (security/outbound-guard.ts); default public addresses only, none of the sandbox's stand-ins. */
  outbound?: OutboundPolicy;
  now?: () => Date;
  messages?: MessageProvider;
  captcha?: CaptchaVerifier;
  channels?: ChannelConnector;
  /** The payment gateway; default composition.ts's (EPAYCO_* keys, else the sandbox's stand-in in sandbox mode). */
  payments?: ClosablePaymentGateway;
  /** Default: the process's key (COLIBRI_SECRET_KEY or DATA_DIR/secret.key), as the demo seed uses. */
  secrets?: SecretBox;
  /** Who signs the certificates' PDFs; default the operator's or platform's key and composition.ts's time-stamping authority. */
  signing?: DocumentSigning;
  logger?: FastifyServerOptions['logger'];
  /** Folder of the console's build; served with the SPA fallback when it holds index.html. */
  consoleRoot?: string | null;
  /** Only for tests of the start-up checks. */
  handlers?: HandlerMap;
  /** The messaging engine's hooks (start.ts passes the running dispatcher's). */
  messaging?: Partial<MessagingHooks>;
  /** Where provider webhooks report (the engine's database sink); without it no webhook routes. */
  receiptSink?: ReceiptSink;
  /** The link shortener: SHORT_BASE_URL (default: this server's origin + /s), cache and click queue settings. */
  shortener?: Omit<ShortenerOptions, 'db' | 'now'>;
  /** Abuse throttling's limits and store (main.ts reads them from the environment); default: the default limits, in memory. */
  throttle?: ThrottleSettings;
  /** TRUST_PROXY (http/trust-proxy.ts): the proxies whose X-Forwarded-For names the client; default none. */
  trustProxy?: TrustProxy;
  /** Where report files are kept; default DATA_DIR/files. */
  storage?: FileStorage;
  /** How often, with a running engine, the due recurring campaigns, scheduled reports and FTP folders are looked for (SCHEDULER_ROUND_MS; default 30 s). */
  roundMs?: number;
}

const COMPONENT_HEADER_MAX = 100;

const noStandIn = { ok: false, kind: 'unreachable', reason: 'no Graph stand-in in this process (the messaging engine is off)' } as const;
const noGraph: WhatsAppTemplateGateway = { submit: async () => noStandIn, edit: async () => noStandIn, remove: async () => noStandIn };
const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.slice(0, COMPONENT_HEADER_MAX) ?? null;

export async function buildServer(options: BuildServerOptions): Promise<FastifyInstance> {
  const now = options.now ?? (() => new Date());
  // Link shortener: our short base URL is the one kind of link a campaign may carry.
  const shortener = createShortener({ db: options.db, now, baseUrl: process.env.SHORT_BASE_URL || undefined, ...options.shortener });
  const secrets = options.secrets ?? defaultSecretBox();
  const deps: ServerDeps = {
    db: options.db,
    now,
    sandbox: options.sandbox ?? false,
    sandboxOutboxOpen: options.sandboxOutboxOpen ?? false,
    outbound: options.outbound ?? new OutboundPolicy({ sandbox: options.sandbox ?? false }),
    ...composePorts({ db: options.db, now, sandbox: options.sandbox ?? false, messages: options.messages, captcha: options.captcha, channels: options.channels, payments: options.payments }),
    secrets,
    messaging: {
      wake: options.messaging?.wake ?? (() => {}),
      sendWindow: options.messaging?.sendWindow ?? companySendWindow(options.db),
      get shortBaseUrls() {
        return [...(options.messaging?.shortBaseUrls ?? []), shortener.baseUrl()];
      },
      // Without the engine: each channel's own baseUrl, else Meta's Graph — but never from the
      // sandbox (tests of the API alone), whose Graph stand-in lives with the engine.
      whatsappTemplates: options.messaging?.whatsappTemplates ?? (options.sandbox ? noGraph : whatsappTemplateGateway({
        db: options.db,
        secrets,
        context: { db: options.db, sink: { status() {}, inbound() {} }, standIns: { smsc: null, graph: null, rbm: null }, publicUrl: () => null },
      })),
      simulateInbound: options.messaging?.simulateInbound,
    },
    shortener,
    storage: options.storage ?? defaultFileStorage(),
    signing: options.signing ?? documentSigning({ secrets, timestamps: timestampAuthority(options.sandbox ?? false, secrets) }),
  };

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: constants.limits.bodyBytes,
    return503OnClosing: true,
    // The router's refusals (a too-long path parameter, broken percent-encoding) in the catalogue's shape.
    frameworkErrors,
    // Each distinct response schema compiled once per process (http/serializer-cache.ts).
    schemaController: { compilersFactory: { buildSerializer: memoisedSerializers } },
    // A hop count trusts that many proxies in front (proxy-addr's meaning of a number).
    trustProxy: typeof options.trustProxy === 'number' ? ((hops) => (_address: string, hop: number) => hop < hops)(options.trustProxy) : (options.trustProxy ?? false),
  });
  app.setValidatorCompiler(compileValidator);
  for (const schema of entitySchemas) app.addSchema(servedSchema(schema as object, false) as never);
  app.decorateRequest('session', null);
  app.decorateRequest('component', null as unknown as ComponentHeaders);

  // The console's component headers: kept on the request for the audit log, never for access.
  app.addHook('onRequest', async (request) => {
    request.component = {
      id: headerValue(request.headers['x-component-id']),
      name: headerValue(request.headers['x-component-name']),
      action: headerValue(request.headers['x-component-action']),
    };
  });

  installErrorHandler(app);
  // JSON bodies nested deeper than JSON_DEPTH_MAX are refused before anything walks them.
  registerJsonBodyParser(app);
  // Security headers and the Content-Security-Policy on every answer (http/security-headers.ts).
  await registerSecurityHeaders(app);
  // Before any route, so the global per-IP limit covers every one.
  const throttle = options.throttle ?? { ...DEFAULT_THROTTLE, store: 'memory' };
  const throttleHookFor = await registerThrottle(app, options.db, throttle);
  await app.register(multipart, { limits: { fileSize: constants.uploads.profilePictureBytes, files: 1, fields: 5, parts: 6 } });

  registerAuditLog(app, deps);
  registerOperations(app, deps, options.handlers ?? defaultHandlers, throttleHookFor);
  // Scheduled report screens ask their operation through these routes, as the schedule's author.
  deps.screens = injectedScreenRunner(app, deps);
  // With a running engine, big launches are written by its job runner, recurring
  // campaigns launch their due runs, scheduled reports make theirs and the FTP folders due are
  // visited (checked every 30 s).
  if (options.messaging) {
    const jobs = startJobRunner(deps, { log: (m, d) => app.log.warn({ detail: d }, m) });
    deps.messaging.wakeJobs = () => jobs.wake();
    // The engine's conversations queue integration calls too: they wake this runner through the engine's hooks.
    options.messaging.wakeJobs = deps.messaging.wakeJobs;
    app.addHook('onClose', async () => jobs.stop());
    const round = () => {
      void runDueCampaigns(deps, (m, d) => app.log.warn({ detail: d }, m)).catch((e) => app.log.error(e));
      // Promotional credits whose date passed leave the balance (engine/credits.ts).
      void expirePromotions(deps.db, deps.now()).catch((e) => app.log.error(e));
      // Scheduled reports: the runs due, then the e-mails of the files that are ready.
      void runDueReportSchedules({ db: deps.db, now: deps.now, wakeJobs: () => jobs.wake() })
        .then(() => writeScreenFiles({ db: deps.db, now: deps.now, storage: deps.storage, run: deps.screens! }))
        .then(() => mailScheduledFiles({ db: deps.db, now: deps.now, secrets: deps.secrets, messages: deps.messages }, listeningOrigin(app)))
        .catch((e) => app.log.error(e));
      // Company FTP folders due a visit: their recipients files become deployments (messaging/ftp-intake.ts).
      void visitDueFtpFolders({ ...deps, log: (m, d) => app.log.warn({ detail: d }, m) }).catch((e) => app.log.error(e));
      // Help attachments no request named within a day (an abandoned form) leave the storage.
      void removeUnusedAttachments(deps.db, deps.storage, deps.now()).catch((e) => app.log.error(e));
    };
    const timer = setInterval(round, options.roundMs ?? 30_000);
    app.addHook('onClose', async () => clearInterval(timer));
  }
  // Report rollups: the deltas every message change appends are folded into the totals every
  // ROLLUP_FOLD_MS (default a minute; one process folds at a time; src/engine/lifecycle/rollups.ts).
  const foldEvery = Number(process.env.ROLLUP_FOLD_MS ?? 60_000);
  if (foldEvery > 0) {
    const fold = setInterval(() => void compactRollups(options.db).catch((e: Error) => app.log.warn({ detail: e.message }, 'rollups: fold failed, retried later')), foldEvery);
    fold.unref();
    app.addHook('onClose', async () => clearInterval(fold));
  }
  // The payment gateway's confirmations: signed form fields, in their own scope.
  await app.register(paymentWebhookRoutes, { db: deps.db, gateway: deps.payments, now: deps.now, path: CONFIRMATION_PATH });
  app.addHook('onClose', async () => (deps.payments as ClosablePaymentGateway).close?.());
  // An operator's signing certificate is read at start: a key that is not its certificate's, or a
  // file that is missing, stops the server with the reason instead of failing the first certificate.
  if (process.env.CERTIFICATE_SIGNING_KEY_FILE || process.env.CERTIFICATE_SIGNING_CERT_FILE) app.addHook('onReady', async () => { await deps.signing.identity(); });
  // Provider webhooks (WhatsApp, Messenger, RCS): signatures over the raw body, in their own scope.
  if (options.receiptSink) await app.register(webhookRoutes, { sink: options.receiptSink, channelSecrets: webhookSecrets(deps), templates: templateStatusSink(deps) });
  app.get('/docs/openapi.json', async () => openapi);
  // The public redirect (GET /s/{code}), under its own limit per address rather than the global one;
  // onClose writes the queued clicks before the database closes.
  shortener.register(app, { rateLimit: redirectRateLimit(throttle) });

  const consoleServed = options.consoleRoot ? await registerConsole(app, options.consoleRoot) : false;
  // Unknown paths and the console's client-side routes count against the global limit too.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    if (trySpaFallback(request, reply, consoleServed)) return reply;
    const error = new ApiError('99936');
    return reply.status(error.status).send(error.toBody());
  });
  return app;
}
