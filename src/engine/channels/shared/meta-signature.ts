// Meta's webhook security (WhatsApp and Messenger share it, research protocols.md 2.2-2.3 and
// §0.9): a GET handshake that echoes hub.challenge when hub.verify_token matches, and
// X-Hub-Signature-256 = "sha256=" + hex HMAC-SHA256(app secret, the RAW body bytes). Meta sends
// non-ASCII as \uXXXX escapes; re-serialising the parsed JSON would produce other bytes, so the
// HMAC is only ever computed over the bytes as received.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type HandshakeAnswer = { status: 200; body: string } | { status: 403; body: string };

/** The GET subscription handshake. `query` is the request's parsed query string. */
export function answerHubChallenge(query: Record<string, unknown>, verifyToken: string | undefined): HandshakeAnswer {
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string' || !verifyToken) return { status: 403, body: 'forbidden' };
  return safeEqual(Buffer.from(token), Buffer.from(verifyToken)) ? { status: 200, body: challenge } : { status: 403, body: 'forbidden' };
}

export function signMetaPayload(appSecret: string, raw: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

/** True when `header` is the signature of exactly these bytes; constant time in the digest. */
export function verifyMetaSignature(raw: Buffer, header: string | string[] | undefined, appSecret: string): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !appSecret) return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(value.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

/** timingSafeEqual for values of any length (a length mismatch is itself not secret here). */
export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
