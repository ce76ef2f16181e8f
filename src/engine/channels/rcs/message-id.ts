// RBM's messageId must be an RFC 4122 UUID, and Google ignores a second create with an id it has
// already seen. Deriving it from our message id (UUID version 5: SHA-1 of a namespace and a
// name) makes a resend after a timeout or a crash harmless without storing anything.
import { createHash, randomUUID } from 'node:crypto';

/** Colibri's namespace for RBM message ids; changing it would make old ids resendable. */
export const RBM_MESSAGE_NAMESPACE = '5b0c3f4e-8a52-4f0e-9d2a-6c1e0b7a9f31';

export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new RangeError('namespace must be a UUID');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The RBM messageId of our message `id` (the messages row id). */
export const rbmMessageId = (id: string) => uuidV5(`colibri:message:${id}`, RBM_MESSAGE_NAMESPACE);

/** requestId of a capability check: any fresh UUID. */
export const rbmRequestId = () => randomUUID();

export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(value);
