// List endpoints at size: 100,000 team members and 100,000 block-list entries in one
// company, a page of 50 with a filter, p95 over random pages — on PGlite and on PostgreSQL.
// The anchor is GET /health (one `select 1` through the same server) measured in the same run.
import { sql } from 'kysely';
import type { Harness } from '../server/harness.ts';
import { onEachDatabase } from './databases.ts';
import { PAGE_WINDOW } from '../../src/server/http/paging.ts';

export type Record = (r: { name: string; value: number; unit: string; anchor: string; anchor_value: number; goal: string; notes?: string }) => void;

const ROWS = 100_000;
const SAMPLES = 300;

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length * 0.95)].toFixed(2));
}

async function timed(run: () => Promise<{ statusCode: number }>, samples = SAMPLES): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    const res = await run();
    out.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`bench request answered ${res.statusCode}`);
  }
  return out;
}

/** Copies a demo user's required columns into ROWS new users (generic over the users table's NOT NULL columns). */
async function fillTeam(h: Harness, companyId: number) {
  const cols = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_name = 'users' and table_schema = current_schema() and is_nullable = 'NO' and column_default is null
      and is_identity = 'NO' and column_name not in ('email', 'full_name')`.execute(h.db);
  const copy = cols.rows.map((c) => sql.ref(c.column_name));
  await sql`
    insert into users (email, full_name, ${sql.join(copy)})
    select 'miembro' || g || '@demo.colibri.co', 'Miembro ' || lpad(g::text, 6, '0'), ${sql.join(copy.map((c) => sql`u.${c}`))}
    from users u, generate_series(1, ${ROWS}) g
    where u.email = 'analista@demo.colibri.co' and u.company_id = ${companyId}`.execute(h.db);
}

async function fillBlockList(h: Harness, companyId: number) {
  await sql`
    insert into block_list (company_id, phone, source, created_at, effective_at)
    select ${companyId}, '+5731' || lpad(g::text, 8, '0'), 'manual', now() - interval '3 days',
           case when g % 2 = 0 then now() - interval '2 days' else now() + interval '20 hours' end
    from generate_series(1, ${ROWS}) g`.execute(h.db);
}

export async function serverListBench(record: Record, postgresUrl: string) {
  await onEachDatabase(postgresUrl, async (h, target) => {
    const companyId = (await h.db.selectFrom('companies').select('id').where('name', '=', 'Demo S.A.S.').executeTakeFirstOrThrow()).id;
    await fillTeam(h, companyId);
    await fillBlockList(h, companyId);
    await sql`analyze`.execute(h.db);
    const token = (await h.as('manager')).token;
    // A page by number reaches the first PAGE_WINDOW rows (deeper pages are refused: 99931, read by
    // cursor, measured below); the pages sampled by number are every page of the window.
    const lastNumbered = PAGE_WINDOW / 50;
    const page = () => 1 + Math.floor(Math.random() * lastNumbered);
    // Warm up caches and the JIT before measuring.
    for (let i = 0; i < 30; i++) await h.op('system.health');
    const anchor = p95(await timed(() => h.op('system.health')));
    const team = p95(await timed(() => h.op('team.list', { token, query: { page: page(), pageSize: 50, state: 'active', sort: 'name' } })));
    // Free-text search: a random 4-digit fragment of the member number ("Miembro 004217",
    // miembro4217@…), first page sorted by name — tens to a few hundred matches out of 100,000.
    const fragment = () => String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
    const search = p95(await timed(() => h.op('team.list', { token, query: { page: 1, pageSize: 50, q: fragment(), sort: 'name' } })));
    const blocked = p95(await timed(() => h.op('blockList.list', { token, query: { page: page(), pageSize: 50, status: 'effective', sort: 'phone' } })));
    // Any page through the cursor the console follows: `after` = the `next` of a random
    // page 1..2000 (the last one included), for every sort column in both orders, with a filter.
    // The cursors are read before the clock starts.
    const cursorP95 = async (op: 'team.list' | 'blockList.list', filter: { [k: string]: string }, sorts: string[]) => {
      const results: { [k: string]: number } = {};
      for (const sort of sorts) for (const order of ['asc', 'desc']) {
        const cursors: string[] = [];
        for (const p of [1, 2, 999, 1999, ...Array.from({ length: 12 }, () => 1 + Math.floor(Math.random() * 2000))]) {
          const next = (await h.op(op, { token, query: { page: p, pageSize: 50, ...filter, sort, order } })).json().next as string | null;
          if (next) cursors.push(next);
        }
        results[`${sort} ${order}`] = p95(await timed(() => h.op(op, { token, query: { page: 2, pageSize: 50, ...filter, sort, order, after: cursors[Math.floor(Math.random() * cursors.length)] } }), 60));
      }
      return results;
    };
    const teamCursor = await cursorP95('team.list', { state: 'active' }, ['name', 'email', 'createdAt']);
    const blockedCursor = await cursorP95('blockList.list', { status: 'effective' }, ['phone', 'createdAt', 'effectiveAt']);
    const worst = (r: { [k: string]: number }) => Math.max(...Object.values(r));
    const detail = (r: { [k: string]: number }) => Object.entries(r).map(([k, v]) => `${k} ${v}`).join(', ');
    const slug = target.toLowerCase();
    record({ name: `list-team-100k-cursor-${slug}`, value: worst(teamCursor), unit: 'ms p95 (worst sort)', anchor: `GET /health p95 on ${target} (same server)`, anchor_value: anchor, goal: 'p95 <= 50 ms for any page of 50 with a filter', notes: `${ROWS} members, state=active, after = next of page 1, 2, 999, 1999 or a random page 1..2000, 60 requests per sort and order: ${detail(teamCursor)}` });
    record({ name: `list-blocklist-100k-cursor-${slug}`, value: worst(blockedCursor), unit: 'ms p95 (worst sort)', anchor: `GET /health p95 on ${target} (same server)`, anchor_value: anchor, goal: 'p95 <= 50 ms for any page of 50 with a filter', notes: `${ROWS} entries, status=effective, after = next of page 1, 2, 999, 1999 or a random page 1..2000, 60 requests per sort and order: ${detail(blockedCursor)}` });
    record({ name: `list-team-100k-${slug}`, value: team, unit: 'ms p95', anchor: `GET /health p95 on ${target} (same server)`, anchor_value: anchor, goal: 'p95 <= 50 ms for a page of 50 with a filter', notes: `${ROWS} members, state=active, sort=name, random pages 1..${lastNumbered} by number (OFFSET within the ${PAGE_WINDOW}-row window; total bounded), ${SAMPLES} requests through Fastify inject` });
    record({ name: `list-team-search-100k-${slug}`, value: search, unit: 'ms p95', anchor: `GET /health p95 on ${target} (same server)`, anchor_value: anchor, goal: 'p95 <= 50 ms for a page of 50 with a filter', notes: `${ROWS} members, q=random 4-digit fragment (name, email, document, phone), sort=name, page 1, ${SAMPLES} requests through Fastify inject` });
    record({ name: `list-blocklist-100k-${slug}`, value: blocked, unit: 'ms p95', anchor: `GET /health p95 on ${target} (same server)`, anchor_value: anchor, goal: 'p95 <= 50 ms for a page of 50 with a filter', notes: `${ROWS} entries, status=effective, sort=phone, random pages 1..${lastNumbered} by number (OFFSET within the ${PAGE_WINDOW}-row window; total bounded), ${SAMPLES} requests through Fastify inject` });
  });
}
