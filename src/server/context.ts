// What handlers receive: the database, the clock, the outside-world providers, and the caller.
import type { Kysely } from 'kysely';
import type { DocumentSigning } from './signing/index.ts';
import type { CaptchaVerifier } from '../core/ports/captcha.ts';
import type { ChannelConnector } from '../core/ports/channel.ts';
import type { MessageProvider } from '../core/ports/message.ts';
import type { PaymentGateway } from '../core/ports/payment.ts';
import type { SendWindow } from '../engine/lifecycle/index.ts';
import type { Session } from './auth/session.ts';
import type { Database } from '../engine/database.ts';
import type { TemplateCallResult, TemplateDraft } from '../engine/channels/index.ts';
import type { OutboundPolicy } from './security/outbound-guard.ts';
import type { SecretBox } from './security/secrets.ts';
import type { FileStorage } from './storage/file-storage.ts';
import type { ScreenRunner } from '../core/ports/screen-runner.ts';

export type { Session };

export interface ServerDeps {
  db: Kysely<Database>;
  /** Every time rule (token, OTP, lock and password expiry) reads this clock, so tests can move it. */
  now: () => Date;
  messages: MessageProvider;
  captcha: CaptchaVerifier;
  /** Checks channel connections and opens a channel's adapter for the try-channel message (composition.ts chooses it). */
  channels: ChannelConnector;
  /** The payment gateway (ePayco, its sandbox stand-in, or none: composition.ts chooses it). */
  payments: PaymentGateway;
  /** Seals and opens secrets at rest (security/secrets.ts). */
  secrets: SecretBox;
  /** Sandbox/demo mode: sandbox-only operations exist (system.outbox). */
  sandbox: boolean;
  /**
   * SANDBOX_OUTBOX_OPEN: the sandbox outbox answers a client of this machine without a session (a
   * loopback peer no proxy header names someone else for). Off by default: behind a local proxy
   * (nginx, ssh -L, socat) every outside client looks like this machine.
   */
  sandboxOutboxOpen?: boolean;
  /** Where connections made on a company's behalf may go: flow integrations, callbacks, FTP folders (security/outbound-guard.ts). */
  outbound: OutboundPolicy;
  /** The messaging engine as handlers see it: wake the dispatcher, the companies' send windows. */
  messaging: MessagingHooks;
  /** The link shortener as handlers use it: a code's short URL and the redirect's cache (modules/shortener/redirect builds it). */
  shortener: ShortLinks;
  /** Where the files the server makes are kept (report files): DATA_DIR/files by default. */
  storage: FileStorage;
  /** Who signs and time-stamps the certificates' PDFs (modules/certificates/signing). */
  signing: DocumentSigning;
  /**
   * How a scheduled report screen asks its operation (modules/reportCenter/report-screen-runner.ts):
   * set once the routes exist, through them, as the schedule's author.
   */
  screens?: ScreenRunner;
}

/** The link shortener as handlers see it (modules/shortener/redirect's Shortener, which app.ts also serves). */
export interface ShortLinks {
  shortUrl(code: string): string;
  /** The redirect's cache: a code changed or deleted is read again; a root link deleted answers gone. */
  cache: { forget(code: string): void; markGone(rootId: number): void };
}

/** Create, edit and delete a WhatsApp template at Meta through one of the company's WhatsApp channels (messaging/whatsapp-templates.ts). */
export interface WhatsAppTemplateGateway {
  submit(channelId: number, draft: TemplateDraft): Promise<TemplateCallResult>;
  edit(channelId: number, templateId: string, draft: TemplateDraft): Promise<TemplateCallResult>;
  remove(channelId: number, templateId: string, name: string): Promise<TemplateCallResult>;
}

export interface MessagingHooks {
  /** New messages are queued: the dispatcher claims them now rather than at its next poll. */
  wake(): void;
  /** A job was created (a big launch): the process's job runner takes it now rather than at its next poll. */
  wakeJobs?(): void;
  /** forget(companyId): the company's window changed (messaging settings); read it again. */
  sendWindow: SendWindow & { forget?(companyId: number): void };
  /** Base URLs of our shortener: the only links a campaign may carry. */
  shortBaseUrls: string[];
  /** WhatsApp templates at Meta (create, edit, delete) through a channel's business account. */
  whatsappTemplates: WhatsAppTemplateGateway;
  /** Sandbox mode: a person writes to the channel through its stand-in; false when it has none. */
  simulateInbound?(channelId: number, from: string, text: string): Promise<boolean>;
}

/** The component headers the console sends; recorded for the audit log, never used to authorise. */
export interface ComponentHeaders { id: string | null; name: string | null; action: string | null }

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
    component: ComponentHeaders;
  }
}
