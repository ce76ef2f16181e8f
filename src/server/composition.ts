// The composition root (ARCHITECTURE 2): the one place that chooses, for each core port
// (src/core/ports), the implementation this process runs — and the one server file that imports
// src/sandbox. Channels: in sandbox mode the sandbox connector (the outbox), otherwise the
// engine's (the channel definitions' real adapters). Messages and captcha have only sandbox
// implementations so far, so every mode wires them; a real SMS or e-mail provider, captcha
// service is chosen here when it lands. Payments: the real ePayco when its keys are set (EPAYCO_*,
// engine/payments/epayco.ts), else in sandbox mode the ePayco stand-in (started on first use),
// else none (buying answers 99900). A caller may pass its own (tests do).
// The messaging engine's sandbox stand-ins (SMSC, Graph, RBM) and the demo's FTP drop box are
// started from here too.
import type { Kysely } from 'kysely';
import type { CaptchaVerifier } from '../core/ports/captcha.ts';
import type { ChannelConnector } from '../core/ports/channel.ts';
import type { MessageProvider } from '../core/ports/message.ts';
import { noPaymentGateway, type PaymentGateway } from '../core/ports/payment.ts';
import { engineChannelConnector } from '../engine/channels/index.ts';
import type { Database } from '../engine/database.ts';
import { epaycoGateway, epaycoSettingsFromEnv } from '../engine/payments/index.ts';
import { sandboxCaptchaVerifier } from '../sandbox/captcha.ts';
import { startEpaycoSandbox, type EpaycoSandbox } from '../sandbox/epayco/index.ts';
import { sandboxChannelConnector } from '../sandbox/channels.ts';
import { startGraphSandbox, type GraphSandbox, type GraphSandboxOptions } from '../sandbox/graph/index.ts';
import { sandboxMessageProvider, type OutboxStore } from '../sandbox/outbox.ts';
import { startRbmSandbox, type RbmSandbox, type RbmSandboxOptions } from '../sandbox/rbm/index.ts';
import { startSandboxSmsc, type SandboxSmsc, type SandboxSmscOptions } from '../sandbox/smsc/index.ts';
import { startSandboxFtp, type SandboxFtp } from '../sandbox/ftp/server.ts';
import { DEMO_FTP_USER, demoFtpPassword, ensureDemoFtpFolder } from './db/demo-ftp.ts';
import type { SecretBox } from './security/secrets.ts';
import { answerTimestampRequest } from '../sandbox/tsa/index.ts';
import { httpTimestampAuthority, issuerFromEnv, selfSignedIdentity, timestampRequest, tokenFromResponse, tokenSealer, type TimestampAuthority } from './signing/index.ts';

export type { GraphSandbox, GraphSandboxOptions, RbmSandbox, RbmSandboxOptions, SandboxSmsc, SandboxSmscOptions };

/** The ports the API's handlers use (ServerDeps). */
export interface Ports {
  messages: MessageProvider;
  captcha: CaptchaVerifier;
  channels: ChannelConnector;
  payments: ClosablePaymentGateway;
}

/** A payment gateway that may hold something to let go of when the server closes (the stand-in). */
export type ClosablePaymentGateway = PaymentGateway & { close?(): Promise<void> };

export interface PortOptions extends Partial<Ports> {
  db: Kysely<Database>;
  now: () => Date;
  sandbox: boolean;
}

/** The sandbox outbox's storage: rows of sandbox_outbox (src/sandbox stays free of database code). */
export function databaseOutboxStore(db: Kysely<Database>): OutboxStore {
  return {
    async append(m) {
      await db.insertInto('sandbox_outbox').values({ company_id: m.companyId ?? null, channel: m.channel, to_address: m.to, subject: m.subject, body: m.body, created_at: m.createdAt }).execute();
    },
  };
}

export function composePorts(options: PortOptions): Ports {
  const outbox = databaseOutboxStore(options.db);
  return {
    messages: options.messages ?? sandboxMessageProvider(outbox, options.now),
    captcha: options.captcha ?? sandboxCaptchaVerifier,
    payments: options.payments ?? paymentGateway(options.sandbox),
    channels: options.channels ?? (options.sandbox
      ? sandboxChannelConnector(outbox, options.now)
      // No stand-ins outside sandbox mode: each channel reaches its own provider.
      : engineChannelConnector({ db: options.db, standIns: { smsc: null, graph: null, rbm: null }, publicUrl: () => null, now: options.now })),
  };
}

/**
 * Who time-stamps the certificates' signatures: the authority at CERTIFICATE_TSA_URL (RFC 3161
 * over HTTP), else in sandbox mode the stand-in (its own key, derived from the master key, in a
 * certificate that says it is the sandbox's), answered in process through the same request and
 * answer checks, else none (the PDF is signed without a stamp; docs/security.md).
 */
export function timestampAuthority(sandbox: boolean, secrets: SecretBox, env: NodeJS.ProcessEnv = process.env): TimestampAuthority | null {
  if (env.CERTIFICATE_TSA_URL) return httpTimestampAuthority(env.CERTIFICATE_TSA_URL);
  if (!sandbox) return null;
  let seal: Promise<(tstInfo: Buffer, at: Date) => Promise<Buffer>> | undefined;
  return {
    name: 'sandbox',
    async stamp(digest) {
      seal ??= selfSignedIdentity(secrets.seed('sandbox/tsa-p256'), issuerFromEnv(env), 'timestamps').then(tokenSealer);
      const { der, nonce } = timestampRequest(digest);
      return tokenFromResponse(await answerTimestampRequest(der, { now: () => new Date(), seal: await seal }), digest, nonce);
    },
  };
}

/** The stand-ins the messaging engine talks to in sandbox mode (none otherwise). */
export interface StandIns {
  smsc: SandboxSmsc | null;
  graph: GraphSandbox | null;
  rbm: RbmSandbox | null;
}

export async function startStandIns(sandbox: boolean, options: { smsc?: SandboxSmscOptions; graph?: GraphSandboxOptions; rbm?: RbmSandboxOptions }): Promise<StandIns> {
  if (!sandbox) return { smsc: null, graph: null, rbm: null };
  const smsc = await startSandboxSmsc(options.smsc);
  const graph = await startGraphSandbox(options.graph);
  const rbm = await startRbmSandbox(options.rbm);
  return { smsc, graph, rbm };
}

/**
 * The sandbox's ePayco: the stand-in starts on the first purchase (most demo sessions never buy)
 * and the same client as the real ePayco talks to it. Its transactions live in its memory, so a
 * confirmation or a lookup before it started cannot be genuine.
 */
export function sandboxPaymentGateway(): ClosablePaymentGateway & { standIn(): Promise<EpaycoSandbox> } {
  let started: Promise<{ standIn: EpaycoSandbox; gateway: PaymentGateway }> | null = null;
  let current: PaymentGateway | null = null;
  const start = () => (started ??= startEpaycoSandbox().then((standIn) => {
    current = epaycoGateway(standIn.settings, { standInCheckoutUrl: (id) => standIn.checkoutUrl(id) });
    return { standIn, gateway: current };
  }));
  return {
    async createCheckout(request) { return (await start()).gateway.createCheckout(request); },
    readConfirmation: (fields) => current?.readConfirmation(fields) ?? null,
    async lookup(ref) { return current ? current.lookup(ref) : null; },
    async standIn() { return (await start()).standIn; },
    async close() { if (started) await (await started).standIn.stop(); },
  };
}

export function paymentGateway(sandbox: boolean): ClosablePaymentGateway {
  const settings = epaycoSettingsFromEnv(process.env);
  if (settings) return epaycoGateway(settings);
  return sandbox ? sandboxPaymentGateway() : noPaymentGateway;
}

/**
 * The demo's FTP drop box: the sandbox FTP server on loopback over `home`, and the demo company's
 * FTP settings pointed at it (db/demo-ftp.ts); `pointed` is false when they name another server.
 */
export async function startDemoFtpBox(db: Kysely<Database>, secrets: SecretBox, home: string): Promise<{ server: SandboxFtp; pointed: boolean }> {
  const password = demoFtpPassword();
  const server = await startSandboxFtp({ accounts: [{ user: DEMO_FTP_USER, password, home }] });
  try {
    return { server, pointed: await ensureDemoFtpFolder(db, secrets, { port: server.port, password }) };
  } catch (error) {
    await server.close();
    throw error;
  }
}
