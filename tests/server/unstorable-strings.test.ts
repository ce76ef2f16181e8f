// Strings the database cannot store: a NUL character or a lone UTF-16 surrogate in any
// JSON string of any write operation answers 99931 naming the field and changes nothing; a NUL in
// `q` answers 4xx on every list. Generated from the declared operations, so a new operation is
// covered the day it is declared. On PGlite and (with DATABASE_URL) PostgreSQL.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { entitySchemas, serverOperations, type ServerOperation } from '../../src/generated/server-operations.gen.ts';
import type { OperationId } from '../../src/generated/operations.gen.ts';
import { isNameProperty } from '../../src/core/storable-text.ts';
import { fileHarness, signedIn } from './file-harness.ts';

type Schema = { $ref?: string; type?: string; properties?: Record<string, unknown>; pattern?: string; enum?: string[]; minimum?: number };

const ROLES = ['superadmin', 'platform', 'develop', 'admin', 'manager', 'analista', 'ops'];
const byId = new Map(entitySchemas.map((s) => [(s as { $id: string }).$id, s as Schema]));
const resolve = (s: Schema): Schema => (s.$ref ? resolve(byId.get(s.$ref.replace(/#$/, ''))!) : s);

/** A value for a path parameter that passes its declared schema (validation must reach the body). */
function paramValue(s: Schema): string {
  if (s.type === 'integer') return String(Math.max(1, s.minimum ?? 1));
  if (s.enum) return s.enum[0];
  const samples: Record<string, string> = {
    '^ck_[A-Za-z0-9_-]{16,40}$': `ck_${'a'.repeat(20)}`, '^[a-z0-9_.-]{1,64}$': 'clave', '^[A-Za-z]{2}$': 'CO', '^[0-9]{1,2}$': '5',
    '^[0-9]{1,18}$': '1', '^[A-Za-z0-9_-]{16,64}$': 'A'.repeat(32),
  };
  const v = s.pattern ? samples[s.pattern] : 'x';
  if (v === undefined) throw new Error(`no sample for the path pattern ${s.pattern}: add one`);
  return v;
}

function paramsOf(op: ServerOperation): Record<string, string> {
  const props = (op.params as { properties?: Record<string, Schema> } | null)?.properties ?? (op.params as Record<string, Schema> | null) ?? {};
  return Object.fromEntries(Object.entries(props).map(([k, s]) => [k, paramValue(s)]));
}

/** The body's declared name properties (core/storable-text.ts isNameProperty): name, fullName, label, title… */
function nameProperties(op: ServerOperation): string[] {
  return Object.keys(resolve(op.body as Schema).properties ?? {}).filter(isNameProperty);
}

/** The body's first declared property: the hostile string goes there, so the answer must name it. */
function firstProperty(op: ServerOperation): string {
  const body = resolve(op.body as Schema);
  const name = Object.keys(body.properties ?? {})[0];
  if (!name) throw new Error(`${op.id}: its body declares no property`);
  return name;
}

const writes = serverOperations.filter((op) => op.method !== 'GET' && op.body);
const lists = serverOperations.filter((op) => op.method === 'GET' && (op.query as { properties?: Record<string, unknown> } | null)?.properties?.q);

const h = fileHarness();
const tokens = signedIn(h, ...ROLES);

async function tableCounts(): Promise<Record<string, number>> {
  const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`.execute(h.db);
  const counts: Record<string, number> = {};
  // The audit log records refused attempts on purpose, and the throttle counts every request
  // (refused ones included: a guesser's malformed tries count too); everything else must stay as it was.
  for (const { table_name } of tables.rows.filter((t) => t.table_name !== 'audit_log' && t.table_name !== 'throttle_counters')) counts[table_name] = Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table_name)}`.execute(h.db)).rows[0].n);
  return counts;
}

describe('hostile strings in request bodies', () => {
  it('covers the operations the issue names', () => {
    expect(writes.map((o) => o.id)).toEqual(expect.arrayContaining(['account.create', 'shortener.create', 'campaigns.create', 'team.create']));
    expect(lists.map((o) => o.id)).toEqual(expect.arrayContaining(['team.list', 'campaigns.list']));
  });

  const cases = writes.flatMap((op) => [
    { op, label: 'NUL', value: 'Nombre\u0000con NUL' },
    { op, label: 'lone surrogate', value: 'etiqueta \ud800' },
  ]);

  // Names are one line without control characters or bidirectional overrides.
  const nameCases = writes.flatMap((op) => nameProperties(op).flatMap((field) => [
    { op, field, label: 'line break in a name', value: 'Ventas\nBogotá' },
    { op, field, label: 'control character in a name', value: 'Ventas\u0007' },
    { op, field, label: 'bidi override in a name', value: 'factura\u202Efdp.exe' },
    { op, field, label: 'bidi isolate in a name', value: 'Ventas \u2067Bogotá\u2069' },
  ]));

  it('finds the name properties the issue means', () => {
    expect(nameCases.map((c) => `${c.op.id}.${c.field}`)).toEqual(expect.arrayContaining(['account.create.name', 'campaigns.create.name', 'team.create.name', 'clientAuth.register.fullName', 'clientAuth.register.companyName']));
  });

  it.each([...cases.map((c) => ({ ...c, field: firstProperty(c.op) })), ...nameCases].map((c) => [c.op.id, c.label, c] as const))('%s with a %s answers 99931 naming the field and changes nothing', async (id, _label, { op, value, field }) => {
    const before = { counts: await tableCounts(), snapshot: await h.snapshot() };
    const tried: string[] = [];
    let refused = false;
    for (const role of op.access === 'public' ? [null] : ROLES) {
      const res = await h.op(id as OperationId, { params: paramsOf(op), body: { [field]: value }, ...(role ? { token: tokens[role] } : {}) });
      expect(res.statusCode, `${role}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${role}: ${res.body}`).toBeLessThan(500);
      tried.push(`${role}: ${res.statusCode} ${res.json().code}`);
      // 99982/99953: this role may not call it at all; try the next one.
      if (res.json().code === '99982' || res.json().code === '99953') continue;
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('99931');
      expect(res.json().errors).toEqual([expect.objectContaining({ field, code: '99931' })]);
      refused = true;
      break;
    }
    expect(refused, `no role reached validation: ${tried.join('; ')}`).toBe(true);
    expect(await tableCounts()).toEqual(before.counts);
    expect(await h.snapshot()).toEqual(before.snapshot);
  });

  it('finds the string deep inside arrays and objects and names its path', async () => {
    const res = await h.op('campaigns.create', { token: tokens.superadmin, body: { name: 'ok', variables: { 'a\u0000': 'x' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ field: 'variables.a\u0000', code: '99931' });
    const deep = await h.op('shortener.create', { token: tokens.platform, body: { url: 'https://example.co', tags: ['bien', 'mal \udfff'] } });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().errors[0]).toMatchObject({ field: 'tags.1', code: '99931' });
  });

  it('keeps well-formed text with emoji and accents', async () => {
    const res = await h.op('account.create', { token: tokens.superadmin, body: { name: 'Ventas Bogotá 🚀' } });
    expect(res.statusCode).toBe(200);
  });

  it('keeps the newlines of a message text, and right-to-left marks in a name', async () => {
    const channel = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0];
    const res = await h.op('campaigns.create', { token: tokens.manager, body: { name: 'Dos líneas \u200F', kind: 'open', purpose: 'transactional', channelId: channel.id, content: 'Hola\nSegunda línea\tcon tabulador' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().content).toBe('Hola\nSegunda línea\tcon tabulador');
  });
});

describe('hostile strings in query strings', () => {
  it.each(lists.map((op) => [op.id, op] as const))('%s?q=%%00 answers 4xx', async (id, op) => {
    let reached = false;
    for (const role of ROLES) {
      const res = await h.op(id as OperationId, { params: paramsOf(op), query: { q: 'a\u0000' }, token: tokens[role] });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      if (res.json().code === '99982') continue;
      expect(res.json()).toMatchObject({ code: '99931', errors: [expect.objectContaining({ field: 'q' })] });
      reached = true;
      break;
    }
    expect(reached).toBe(true);
  });
});
