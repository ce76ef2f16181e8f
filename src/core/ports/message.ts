// The message port: how the product sends its own codes and notices (sign-in codes, invitations,
// password resets) by SMS or e-mail. The sandbox implements it with the outbox
// (src/sandbox/outbox.ts); a real SMS aggregator or e-mail service implements the same shape, and
// the server's composition root (src/server/composition.ts) chooses which one runs.

import type { OtpMethod } from '../../generated/enums.gen.ts';

/** The ways the product reaches a person: a user's one-time-code method (sms or email). */
export type MessageChannel = OtpMethod;

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
