// The `pg` pool behind Kysely on PostgreSQL, made to outlive its connections. PostgreSQL can end
// a connection at any moment (pg_terminate_backend, a restart or failover, an idle timeout in a
// proxy, a network cut). `pg` then emits 'error' on the client: the pool forwards an idle
// client's error to its own 'error' event, and a checked-out client's (in a transaction between
// two statements, or running one) has no listener of the pool's at all. An 'error' event nobody
// listens to throws, and it ended every API server and worker at once. Here both are listened
// to: the failure is logged, the statement in flight (or the next one on that client) fails with
// the error, the pool drops the client when it is released (pg-pool removes a client that is no
// longer queryable) and opens a new connection for the next checkout.
//
// Each connection carries an application_name (pg_stat_activity shows which process holds it):
// PGAPPNAME, libpq's own variable, when set; else the caller's name for the process.
import pg from 'pg';

export interface PostgresPoolOptions {
  url: string;
  max: number;
  schema?: string;
  /** The default application_name when PGAPPNAME is not set. */
  applicationName?: string;
  /** Cancels any statement running longer (PostgreSQL's statement_timeout; 0 or unset: no limit). */
  statementTimeoutMs?: number;
  /** Told once per connection lost (message and SQLSTATE only: a driver error can carry settings). */
  onConnectionLost?: (message: string) => void;
}

const describe = (error: Error) => {
  const code = (error as { code?: unknown }).code;
  return `${typeof code === 'string' ? `${code} ` : ''}${error.message}`;
};

export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max,
    application_name: process.env.PGAPPNAME || options.applicationName || 'colibri',
    // A per-test (or per-tenant-shard) schema goes first on every connection's search_path.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    // Waiting for a lock counts too: a request stuck behind another's lock ends as well (99993).
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  const lost = options.onConnectionLost ?? ((message: string) => console.warn(`${new Date().toISOString()} database connection lost (${message}); the pool opens a new one`));
  // An idle client's error comes here (pg-pool's own listener forwards it).
  pool.on('error', (error) => lost(describe(error)));
  // A checked-out client's error: the query in flight already rejects with it; this listener
  // only keeps the event from throwing (an idle client's is logged above, once).
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}
