// Database errors after which the same work may simply be tried again: the connection was lost
// (the server ended it — pg_terminate_backend, a restart, a failover — or the network cut it; the
// pool opens a new one) or PostgreSQL chose this transaction as the one to abort (a deadlock, a
// serialization failure). Nothing of an aborted transaction was written, so a retry of a write
// guarded by its own state check (see dispatch.ts) is safe.

/** SQLSTATEs: class 08 (connection exception), 57P01–57P03 (the server ended the session), 40001 and 40P01. */
const RETRYABLE_STATES = /^(08...|57P0[123]|40001|40P01)$/;
/** What `pg` and Node say when the socket itself went (no SQLSTATE then). */
const LOST_MESSAGES = /Connection terminated|not queryable|terminating connection|ECONNRESET|ECONNREFUSED|EPIPE/i;

/** Whether the database connection was lost under this error (the request or step may go again on a new one). */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^(08...|57P0[123])$/.test(code)) return true;
  return LOST_MESSAGES.test(error.message) || (typeof code === 'string' && LOST_MESSAGES.test(code));
}

/** Whether this error aborted the work without writing it, so that it can be tried again as it was. */
export function isRetryableDatabaseError(error: unknown): boolean {
  if (isConnectionLost(error)) return true;
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && RETRYABLE_STATES.test(code);
}
