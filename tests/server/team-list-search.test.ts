// Team list search and paging at more than FEW_ROWS rows (src/server/http/paging.ts): the answers
// are the same as the plain query the list always ran — ILIKE '%q%' on name, e-mail, document id
// and phone (case-insensitive, accents significant, LIKE wildcards literal), exact count, ORDER BY
// sort column then id, LIMIT/OFFSET — whichever way the page is now read (matching ids first for a
// q of 3+ characters, ids-only paging with the joined names read for the page's rows). Also: the
// trigram indexes exist (migration 0204), and the migration tolerates a database without pg_trgm.
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { up as teamSearchUp } from '../../src/server/db/migrations/0204_team-search.ts';
import { COUNT_BOUND, FEW_ROWS } from '../../src/server/http/paging.ts';
import { fileHarness, signedIn } from './file-harness.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let companyId: number;

// More than FEW_ROWS members whose names, e-mails, documents and phones share substrings, plus a
// few names with accents, case, ñ and the LIKE wildcards.
const BULK = FEW_ROWS + 300;
const SPECIAL = [
  ['José Ñúñez', 'jose.nunez'], ['JOSÉ PEÑA', 'jpena'], ['Jose Pena', 'jose.pena'], ['María 100% Díaz', 'mdiaz'],
  ['Ana_Luz Mejía', 'analuz'], ['Back\\slash Ríos', 'brios'], ['Ángela Álvarez', 'aalvarez'], ['ÁNGELA ÁLVAREZ', 'aalvarez2'],
] as const;

beforeAll(async () => {
  companyId = (await h.db.selectFrom('companies').select('id').where('name', '=', 'Demo S.A.S.').executeTakeFirstOrThrow()).id;
  // Copies a demo user's other required columns (as tests/bench/server-lists.ts does); area, cost
  // center and responsible come from Carolina Ruiz, who has all three.
  const cols = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_name = 'users' and table_schema = current_schema() and is_nullable = 'NO' and column_default is null
      and is_identity = 'NO' and column_name not in ('email', 'full_name', 'state', 'document_id', 'phone', 'area_id', 'cost_center_id', 'parent_id')`.execute(h.db);
  const copy = cols.rows.map((c) => sql.ref(c.column_name));
  await sql`
    insert into users (email, full_name, state, document_id, phone, area_id, cost_center_id, parent_id, ${sql.join(copy)})
    select 'miembro' || g || '@demo.colibri.co', 'Miembro ' || lpad(g::text, 5, '0'),
           case when g % 7 = 0 then 'disabled' else 'active' end,
           (700000 + g * 13)::text, '+57310' || lpad((g * 37)::text, 7, '0'),
           case when g % 3 = 0 then null else r.area_id end, r.cost_center_id, case when g % 5 = 0 then null else r.parent_id end,
           ${sql.join(copy.map((c) => sql`u.${c}`))}
    from users u, users r, generate_series(1, ${BULK}) g
    where u.email = 'analista@demo.colibri.co' and u.company_id = ${companyId} and r.email = ${demoEmail('carolina.ruiz')}`.execute(h.db);
  for (const [i, [name, email]] of SPECIAL.entries()) {
    await sql`
      insert into users (email, full_name, state, document_id, phone, ${sql.join(copy)})
      select ${`${email}@demo.colibri.co`}, ${name}, 'active', ${`990${i}`}, ${`+5732000000${i}`}, ${sql.join(copy.map((c) => sql`u.${c}`))}
      from users u where u.email = 'analista@demo.colibri.co' and u.company_id = ${companyId}`.execute(h.db);
  }
  await sql`analyze users`.execute(h.db);
}, 120_000);

const SORT_COLUMN = { name: 'full_name', email: 'email', state: 'state', documentId: 'document_id', createdAt: 'created_at' } as const;

/** The list as the plain query computes it: every matching id in order (the manager sees the whole company). */
async function reference(query: { q?: string; state?: string; sort?: keyof typeof SORT_COLUMN; order?: 'asc' | 'desc' }): Promise<number[]> {
  const q = query.q?.trim();
  const pattern = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const column = query.sort ? SORT_COLUMN[query.sort] : 'id';
  const order = sql.raw(query.sort ? (query.order ?? 'asc') : 'asc');
  const rows = await sql<{ id: number }>`
    select id from users
    where company_id = ${companyId}
      ${pattern ? sql`and (full_name ilike ${pattern} or email ilike ${pattern} or document_id ilike ${pattern} or phone ilike ${pattern})` : sql``}
      ${query.state ? sql`and state = ${query.state}` : sql``}
    order by ${sql.ref(column)} ${order}, id ${order}`.execute(h.db);
  return rows.rows.map((r) => r.id);
}

type Page = { items: { id: number; name: string; areaName: string | null; parentName: string | null }[]; total: number; totalIsEstimate?: boolean; page: number; pageSize: number };

async function list(query: Record<string, string | number>): Promise<Page> {
  const res = await h.op('team.list', { token: tokens.manager, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}

describe('team.list search and paging give the same answers as the plain query', () => {
  const cases: { q?: string; state?: string; sort?: keyof typeof SORT_COLUMN; order?: 'asc' | 'desc' }[] = [
    { q: 'mejía' }, { q: 'MEJÍA', sort: 'name' }, { q: 'Mejia' }, // case-insensitive, accents significant (as before)
    { q: 'josé', sort: 'name', order: 'desc' }, { q: 'JOSE' }, { q: 'ñúñ' }, { q: 'ÑÚÑEZ' }, { q: 'peña' },
    { q: 'ángela' }, { q: 'ÁLVAREZ', sort: 'email' },
    { q: '%' }, { q: '100%' }, { q: '_' }, { q: 'a_l' }, { q: 'Ana_' }, { q: '\\' }, { q: 'k\\s' }, // wildcards and backslash literal
    { q: 'a' }, { q: 'Mi' }, { q: 'ñ' }, // 1–2 characters: no trigram, still a substring search
    { q: '0042' }, { q: '  0042  ' }, { q: '00123', sort: 'name' }, { q: '7000', sort: 'documentId' }, { q: '+57310' },
    { q: 'miembro1', sort: 'email', order: 'desc' }, { q: '@demo.colibri', state: 'disabled' },
    { q: 'miembro' }, { q: 'MIEMBRO 0', sort: 'name', state: 'active' }, // more than FEW_ROWS matches
    { q: 'nadie-se-llama-asi' },
    {}, { state: 'active', sort: 'name' }, { sort: 'createdAt', order: 'desc' }, { sort: 'state' }, { state: 'disabled', sort: 'email', order: 'desc' },
  ];

  it.each(cases)('%o', async (query) => {
    const ids = await reference(query);
    const pageSize = 7;
    const pages = Math.ceil(ids.length / pageSize);
    // First, second, a middle, the last and one past the last page.
    const wanted = [...new Set([1, 2, Math.ceil(pages / 2), pages, pages + 1])].filter((p) => p >= 1);
    for (const page of wanted) {
      const got = await list({ ...query, page, pageSize });
      // Totals are exact up to COUNT_BOUND, then COUNT_BOUND flagged as a lower bound.
      expect(got.total).toBe(Math.min(ids.length, COUNT_BOUND));
      expect(got.totalIsEstimate ?? false).toBe(ids.length > COUNT_BOUND);
      expect(got).toMatchObject({ page, pageSize });
      expect(got.items.map((m) => m.id)).toEqual(ids.slice((page - 1) * pageSize, page * pageSize));
    }
  });

  it('covers both sides of FEW_ROWS: a rare q and a common one', async () => {
    expect((await reference({ q: '0042' })).length).toBeLessThanOrEqual(FEW_ROWS);
    expect((await reference({ q: 'miembro' })).length).toBeGreaterThan(FEW_ROWS);
  });

  it('reads the joined columns (area, cost center, responsible, roles) of a deep page as team.get does', async () => {
    const ids = await reference({ sort: 'name' });
    const page = Math.ceil(ids.length / 50 / 2);
    const got = await list({ sort: 'name', page, pageSize: 50 });
    expect(got.items.map((m) => m.id)).toEqual(ids.slice((page - 1) * 50, page * 50));
    expect(got.items.some((m) => m.areaName !== null && m.parentName !== null)).toBe(true);
    for (const member of got.items) {
      const one = await h.op('team.get', { token: tokens.manager, params: { id: member.id } });
      expect(member).toEqual(one.json());
    }
  });
});

describe('migration 0204 (team search indexes)', () => {
  it('created a GIN trigram index on each searched column', async () => {
    const rows = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'users' and indexname like '%trgm%' order by indexname`.execute(h.db);
    expect(rows.rows.map((r) => r.indexname)).toEqual(['users_document_id_trgm_idx', 'users_email_trgm_idx', 'users_full_name_trgm_idx', 'users_phone_trgm_idx']);
    for (const r of rows.rows) expect(r.indexdef).toMatch(/USING gin \(\w+ [\w".]*gin_trgm_ops\)/);
  });

  it('does nothing, without failing the migrations transaction, where pg_trgm is not available', async () => {
    const pglite = new PGlite(); // no pg_trgm loaded: `create extension pg_trgm` fails here
    const db = new Kysely<unknown>({ dialect: new PGliteDialect({ pglite }) });
    try {
      await sql`create table users (id serial primary key, full_name text, email text, document_id text, phone text)`.execute(db);
      const after = await db.transaction().execute(async (trx) => {
        await teamSearchUp(trx);
        // The transaction is still usable: the refused statements were rolled back to a savepoint.
        return (await sql<{ n: number }>`select count(*)::int as n from pg_indexes where tablename = 'users' and indexname like '%trgm%'`.execute(trx)).rows[0].n;
      });
      expect(after).toBe(0);
      expect((await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db)).rows[0].n).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});
