// Keyset paging and bounded totals (src/server/http/paging.ts): following `next` as
// `after` visits every row exactly once, in the order of the plain ORDER BY sort, id query, under
// each sort and order, with ties and NULL sort values; a row inserted while paging repeats nothing;
// a cursor of another sort is refused; totals are exact up to COUNT_BOUND and flagged above it.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { COUNT_BOUND, PAGE_WINDOW } from '../../src/server/http/paging.ts';
import { fileHarness, signedIn } from './file-harness.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let companyId: number;
/** The users table's other required columns, copied from a demo member. */
let copy: ReturnType<typeof sql.ref>[] = [];

const MEMBERS = 240;

beforeAll(async () => {
  companyId = (await h.db.selectFrom('companies').select('id').where('name', '=', 'Demo S.A.S.').executeTakeFirstOrThrow()).id;
  const cols = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_name = 'users' and table_schema = current_schema() and is_nullable = 'NO' and column_default is null
      and is_identity = 'NO' and column_name not in ('email', 'full_name', 'state', 'document_id', 'created_at')`.execute(h.db);
  copy = cols.rows.map((c) => sql.ref(c.column_name));
  // Ties everywhere: ten names, two states, five creation instants (microseconds apart, which a
  // JavaScript Date can't hold), and a document id that is NULL for every fourth member.
  await sql`
    insert into users (email, full_name, state, document_id, created_at, ${sql.join(copy)})
    select 'cursor' || g || '@demo.colibri.co', 'Socio ' || (g % 10), case when g % 3 = 0 then 'disabled' else 'active' end,
           case when g % 4 = 0 then null else (g % 6)::text end,
           timestamptz '2026-01-01 00:00:00.000001+00' + (g % 5) * interval '1 microsecond',
           ${sql.join(copy.map((c) => sql`u.${c}`))}
    from users u, generate_series(1, ${MEMBERS}) g
    where u.email = 'analista@demo.colibri.co' and u.company_id = ${companyId}`.execute(h.db);
  // Block list: exactly COUNT_BOUND + 5 entries (the demo's own are removed first), 30 of them
  // from a file, effective dates in 7 groups.
  await sql`delete from block_list where company_id = ${companyId}`.execute(h.db);
  await sql`
    insert into block_list (company_id, phone, source, created_at, effective_at)
    select ${companyId}, '+5731' || lpad(g::text, 8, '0'), case when g <= 30 then 'file' else 'manual' end,
           now() - interval '3 days', now() - interval '2 days' - (g % 7) * interval '1 hour'
    from generate_series(1, ${COUNT_BOUND + 5}) g`.execute(h.db);
  await sql`analyze`.execute(h.db);
}, 120_000);

type Answer = { items: { id: number }[]; total: number; page: number; pageSize: number; next?: string | null; totalIsEstimate?: boolean };

async function list(op: 'team.list' | 'blockList.list', query: Record<string, string | number>): Promise<Answer> {
  const res = await h.op(op, { token: tokens.manager, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Answer;
}

/** Every id of the list, following `next` from page 1; `between` runs after each page. */
async function walk(op: 'team.list' | 'blockList.list', query: Record<string, string | number>, between?: (pages: number) => Promise<void>): Promise<number[]> {
  const ids: number[] = [];
  let answer = await list(op, { ...query, page: 1 });
  for (let pages = 1; ; pages++) {
    ids.push(...answer.items.map((r) => r.id));
    if (!answer.next) break;
    expect(answer.items).toHaveLength(answer.pageSize);
    await between?.(pages);
    answer = await list(op, { ...query, page: pages + 1, after: answer.next });
  }
  return ids;
}

const TEAM_COLUMN = { name: 'full_name', email: 'email', state: 'state', documentId: 'document_id', createdAt: 'created_at' } as const;

/** The team as the plain query orders it (PostgreSQL's default: NULLs last ascending, first descending). */
async function teamReference(sort: keyof typeof TEAM_COLUMN | undefined, order: 'asc' | 'desc'): Promise<number[]> {
  const dir = sql.raw(sort ? order : 'asc');
  const rows = await sql<{ id: number }>`
    select id from users where company_id = ${companyId}
    order by ${sql.ref(sort ? TEAM_COLUMN[sort] : 'id')} ${dir}, id ${dir}`.execute(h.db);
  return rows.rows.map((r) => r.id);
}

describe('following next visits every row once, in order', () => {
  const sorts = [undefined, 'name', 'email', 'state', 'documentId', 'createdAt'] as const;
  const cases = sorts.flatMap((sort) => (['asc', 'desc'] as const).map((order) => ({ sort, order })));
  it.each(cases)('team.list %o', async ({ sort, order }) => {
    const expected = await teamReference(sort, order);
    const ids = await walk('team.list', { pageSize: 7, ...(sort ? { sort, order } : {}) });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected);
  });

  it.each(['phone', 'createdAt', 'effectiveAt'].flatMap((sort) => (['asc', 'desc'] as const).map((order) => ({ sort, order }))))('blockList.list %o', async ({ sort, order }) => {
    const dir = sql.raw(order);
    const column = sql.ref({ phone: 'phone', createdAt: 'created_at', effectiveAt: 'effective_at' }[sort]!);
    const expected = (await sql<{ id: number }>`select id from block_list where company_id = ${companyId} and source = 'file' order by ${column} ${dir}, id ${dir}`.execute(h.db)).rows.map((r) => Number(r.id));
    const ids = (await walk('blockList.list', { pageSize: 4, source: 'file', sort, order })).map(Number);
    expect(ids).toEqual(expected);
  });

  it('a row inserted before the cursor while paging repeats no row and hides none', async () => {
    const before = (await teamReference('name', 'asc'));
    const added: number[] = [];
    const ids = await walk('team.list', { pageSize: 10, sort: 'name' }, async (pages) => {
      if (pages > 3) return;
      // "Socio 0…" sorts before the rows already shown: with OFFSET paging every later page would
      // start one row earlier and repeat a row.
      const row = await sql<{ id: number }>`
        insert into users (email, full_name, state, ${sql.join(copy)})
        select ${`nuevo${pages}@demo.colibri.co`}, 'Socio 0 ', 'active', ${sql.join(copy.map((c) => sql`u.${c}`))}
        from users u where u.email = 'analista@demo.colibri.co' and u.company_id = ${companyId} returning id`.execute(h.db);
      added.push(row.rows[0].id);
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !added.includes(id))).toEqual(before);
  });

  it('a cursor of another sort or order, or not a cursor, answers 99931', async () => {
    const first = await list('team.list', { pageSize: 5, sort: 'name' });
    for (const query of [{ sort: 'email', order: 'asc', after: first.next! }, { sort: 'name', order: 'desc', after: first.next! }, { sort: 'name', order: 'asc', after: 'no-es-un-cursor' }]) {
      const res = await h.op('team.list', { token: tokens.manager, query: { pageSize: 5, ...query } });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('99931');
    }
  });

  it('a page by number reaches the first PAGE_WINDOW rows; past it 99931 on `page`, while a cursor reads on', async () => {
    // The last page inside the window answers (empty here: the lists are shorter than the window).
    const edge = await list('blockList.list', { page: PAGE_WINDOW / 50, pageSize: 50, sort: 'phone' });
    expect(edge.items).toEqual([]);
    for (const [op, query] of [['blockList.list', { page: PAGE_WINDOW / 50 + 1, pageSize: 50, sort: 'phone' }], ['team.list', { page: PAGE_WINDOW / 200 + 1, pageSize: 200 }], ['team.list', { page: 1000000 }]] as const) {
      const res = await h.op(op, { token: tokens.manager, query });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: '99931', errors: [{ field: 'page' }] });
    }
    // With `after` the page number is not an offset: the page past the window is read by cursor.
    const first = await list('blockList.list', { pageSize: 50, sort: 'phone' });
    const deep = await list('blockList.list', { page: PAGE_WINDOW / 50 + 1, pageSize: 50, sort: 'phone', after: first.next! });
    expect(deep.items).toHaveLength(50);
    expect(deep.items[0].id).not.toBe(first.items[0].id);
  });

  it('a page that is not full has no next', async () => {
    const last = await list('blockList.list', { pageSize: 50, source: 'file' });
    expect(last.items).toHaveLength(30);
    expect(last.next).toBeNull();
  });
});

describe('bounded totals', () => {
  it('is exact below COUNT_BOUND and not flagged', async () => {
    const answer = await list('blockList.list', { pageSize: 5, source: 'file' });
    expect(answer.total).toBe(30);
    expect(answer.totalIsEstimate).toBeUndefined();
    const team = await list('team.list', { pageSize: 5 });
    expect(team.total).toBe(await h.db.selectFrom('users').where('company_id', '=', companyId).select(({ fn }) => fn.countAll<string>().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n)));
  });

  it('above COUNT_BOUND, total is COUNT_BOUND flagged as a lower bound, on any page', async () => {
    for (const page of [1, 150, Math.ceil((COUNT_BOUND + 5) / 50)]) {
      const answer = await list('blockList.list', { page, pageSize: 50, sort: 'phone' });
      expect(answer.total).toBe(COUNT_BOUND);
      expect(answer.totalIsEstimate).toBe(true);
    }
    // Exactly at the bound is still exact.
    const exact = await list('blockList.list', { pageSize: 50, source: 'manual' });
    expect(exact.total).toBe(COUNT_BOUND - 25);
    expect(exact.totalIsEstimate).toBeUndefined();
  });

  it('the last rows are reached by cursor past COUNT_BOUND', async () => {
    const ids = await walk('blockList.list', { pageSize: 200, sort: 'phone', order: 'desc' });
    expect(ids).toHaveLength(COUNT_BOUND + 5);
    expect(new Set(ids).size).toBe(COUNT_BOUND + 5);
  }, 60_000);
});
