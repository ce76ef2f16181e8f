// Google RBM webhooks (research protocols.md 4):
// - setup: Google POSTs {clientToken, secret}; when clientToken is ours we answer 200 with the
//   secret as plain text;
// - events: {message:{data: base64(JSON), messageId, publishTime}, subscription} with
//   X-Goog-Signature = base64(HMAC-SHA512(clientToken, the base64-DECODED data)).
// Decoded: user events {senderPhoneNumber, eventType DELIVERED|READ|IS_TYPING, eventId,
// messageId, sendTime, agentId} and user messages {senderPhoneNumber, messageId, sendTime,
// agentId, text | suggestionResponse{postbackData,text} | location | userFile}.
import { createHmac } from 'node:crypto';
import type { DeliveryStatus } from '../../channel-adapter.ts';
import type { ChannelWebhook } from '../shared/webhook.ts';
import { asObject, asString, dateOf, parseJsonBody, WebhookPayloadError, type WebhookEvents } from '../shared/webhook-events.ts';
import { safeEqual } from '../shared/meta-signature.ts';

export type RbmSetupAnswer = { status: 200; body: string } | { status: 403; body: string };

/** The body is a setup handshake when it carries clientToken and secret (and no message). */
export function isRbmSetup(body: unknown): boolean {
  const b = asObject(body);
  return typeof b.clientToken === 'string' && typeof b.secret === 'string' && b.message === undefined;
}

export function answerRbmSetup(body: unknown, clientToken: string | undefined): RbmSetupAnswer {
  const b = asObject(body);
  if (!clientToken || typeof b.clientToken !== 'string' || typeof b.secret !== 'string') return { status: 403, body: 'forbidden' };
  return safeEqual(Buffer.from(b.clientToken), Buffer.from(clientToken)) ? { status: 200, body: b.secret } : { status: 403, body: 'forbidden' };
}

export function signRbmData(clientToken: string, decoded: Buffer): string {
  return createHmac('sha512', clientToken).update(decoded).digest('base64');
}

/** `data` is message.data as received (base64); the HMAC covers its decoded bytes. */
export function verifyRbmSignature(data: string, header: string | string[] | undefined, clientToken: string): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !clientToken) return false;
  const expected = createHmac('sha512', clientToken).update(Buffer.from(data, 'base64')).digest();
  return safeEqual(expected, Buffer.from(value.trim(), 'base64'));
}

/** message.data of an event envelope, or null when the body is not one. */
export function rbmEnvelopeData(body: unknown): string | null {
  const data = asObject(asObject(body).message).data;
  return typeof data === 'string' && data.length > 0 ? data : null;
}

const eventStatus: Record<string, DeliveryStatus> = { DELIVERED: 'DELIVERED', READ: 'READ' };

export function parseRbmEvent(data: string, now: Date = new Date()): WebhookEvents {
  let decoded: Record<string, unknown>;
  try {
    decoded = asObject(JSON.parse(Buffer.from(data, 'base64').toString('utf8')));
  } catch {
    throw new WebhookPayloadError('message.data is not base64 JSON');
  }
  const events: WebhookEvents = { statuses: [], inbound: [] };
  const messageId = asString(decoded.messageId);
  const at = dateOf(Date.parse(asString(decoded.sendTime) ?? ''), 'ms', now);
  const eventType = asString(decoded.eventType);
  if (eventType) {
    const status = eventStatus[eventType];
    if (status && messageId) events.statuses.push({ providerMessageId: messageId, status, at, dedupeKey: `${messageId}:${eventType}` });
    return events; // IS_TYPING and future event types: nothing to record
  }
  const from = asString(decoded.senderPhoneNumber);
  const suggestion = asObject(decoded.suggestionResponse);
  const text = asString(decoded.text) ?? asString(suggestion.text) ?? asString(suggestion.postbackData);
  if (from && messageId && text !== undefined) events.inbound.push({ to: asString(decoded.agentId) ?? '', from, text, providerMessageId: messageId, at });
  return events;
}

/** RBM's webhook: the setup handshake (echo of the secret), then events signed with X-Goog-Signature. */
export const rbmWebhook: ChannelWebhook = {
  path: 'rcs',
  secretsOf: (token) => ({ clientToken: token }),
  post(request, secrets, now) {
    let body: unknown;
    try {
      body = parseJsonBody(request.raw);
    } catch {
      return { kind: 'refuse', code: '99931' };
    }
    if (isRbmSetup(body)) {
      const answer = answerRbmSetup(body, secrets.clientToken);
      return answer.status === 200 ? { kind: 'reply', status: 200, body: answer.body } : { kind: 'refuse', code: '99953' };
    }
    const data = rbmEnvelopeData(body);
    if (data === null) return { kind: 'refuse', code: '99931' };
    if (!secrets.clientToken || !verifyRbmSignature(data, request.headers['x-goog-signature'], secrets.clientToken)) return { kind: 'refuse', code: '99953' };
    try {
      return { kind: 'events', events: parseRbmEvent(data, now) };
    } catch (error) {
      if (error instanceof WebhookPayloadError) return { kind: 'refuse', code: '99931' };
      throw error;
    }
  },
};
