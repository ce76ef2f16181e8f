// The reference that ties a receipt to a message when the receipt arrives before (or without) the
// provider's message id: SMPP's user_message_reference (TLV 0x0204) carries the low 16 bits of our
// message id, and SMSCs that echo it give it back in the receipt. The rule is written here once,
// in TypeScript for the adapter that sends it and in SQL for the statements that match waiting
// receipts (in-doubt adoption and resend, long-message parts); tests/server/user-reference.test.ts
// proves the two agree.
import { sql, type RawBuilder } from 'kysely';

/** user_message_reference values are 16 bits wide. */
const SPAN = 65536;

/** The low 16 bits of a message id (a decimal id, as the database gives it; any other id is hashed into 16 bits). */
export function userReferenceOf(messageId: string): number {
  if (/^\d+$/.test(messageId)) return Number(BigInt(messageId) % BigInt(SPAN));
  let hash = 0;
  for (let i = 0; i < messageId.length; i++) hash = (hash * 31 + messageId.charCodeAt(i)) % SPAN;
  return hash;
}

/** userReferenceOf in SQL, over a message id column ("m.id"; ids are non-negative bigints). */
export function userReferenceSql(idColumn: string): RawBuilder<number> {
  return sql<number>`(${sql.ref(idColumn)} % ${sql.lit(SPAN)})`;
}
