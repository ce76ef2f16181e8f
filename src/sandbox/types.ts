// The small interfaces the server talks to for the outside world. Real providers (an SMS
// aggregator, an e-mail service, reCAPTCHA/Turnstile) implement the same shapes later; the
// sandbox implementations here serve the embedded demo and the tests.
import type { ChannelPlatform, OtpMethod } from '../generated/enums.gen.ts';

export type MessageChannel = OtpMethod;

/** What the sandbox outbox records: codes and notices (sms, email) and channel test messages. */
export type OutboxChannel = MessageChannel | ChannelPlatform;

export interface OutgoingMessage {
  channel: MessageChannel;
  /** E.164 phone for sms, address for email. */
  to: string;
  subject: string;
  body: string;
  /** The company the message is sent for; the sandbox outbox shows a company only its own mail. */
  companyId?: number | null;
}

export interface MessageProvider {
  send(message: OutgoingMessage): Promise<void>;
}

export interface CaptchaVerifier {
  /** True when the token proves a human; `remoteIp` is passed on to providers that use it. */
  verify(token: string | undefined, remoteIp?: string): Promise<boolean>;
}
