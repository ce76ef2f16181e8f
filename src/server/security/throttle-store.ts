// The database store for @fastify/rate-limit: counters in throttle_counters, so every
// API process on one PostgreSQL meets the same limits. One statement per request, atomic under
// concurrency (insert … on conflict … do update … returning): a key's fixed window starts at its
// first request and the next request after it ends starts a new one. The database's clock, not
// each process's, decides when a window ends.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../engine/database.ts';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** Swept every this many requests (per process): rows whose window ended long ago. */
const SWEEP_EVERY = 1000;

export interface ThrottleStore {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
  child(): ThrottleStore;
}

export function databaseStore(db: Kysely<Database>): ThrottleStore {
  let requests = 0;
  const store: ThrottleStore = {
    incr(key, callback, timeWindow) {
      const window = sql`(now() + ${timeWindow} * interval '1 millisecond')`;
      sql<{ hits: number; ttl: string }>`
        insert into throttle_counters as c (key, hits, window_ends) values (${key}, 1, ${window})
        on conflict (key) do update set
          hits = case when c.window_ends <= now() then 1 else c.hits + 1 end,
          window_ends = case when c.window_ends <= now() then ${window} else c.window_ends end
        returning hits, greatest(0, ceil(extract(epoch from (window_ends - now())) * 1000))::bigint as ttl`
        .execute(db)
        .then(({ rows: [row] }) => callback(null, { current: row.hits, ttl: Number(row.ttl) }), (error: Error) => callback(error));
      if (++requests % SWEEP_EVERY === 0) void sql`delete from throttle_counters where window_ends < now() - interval '1 hour'`.execute(db).catch(() => {});
    },
    read(key, callback) {
      sql<{ hits: number; ttl: string }>`
        select hits, ceil(extract(epoch from (window_ends - now())) * 1000)::bigint as ttl
        from throttle_counters where key = ${key} and window_ends > now()`
        .execute(db)
        .then(({ rows: [row] }) => callback(null, row ? { current: row.hits, ttl: Number(row.ttl) } : { current: 0, ttl: 0 }), (error: Error) => callback(error));
    },
    // Keys already name their class (src/server/security/throttle.ts): one table serves them all.
    child: () => store,
  };
  return store;
}
