// Hostile input to every operation, generated from the OpenAPI document the product
// publishes (src/generated/openapi.gen.json): for each operation, as a signed-in user whose role
// may call it, every declared body property, query parameter and path parameter gets one kind of
// hostile value at a time: NUL, a lone surrogate, huge and negative numbers, the wrong type,
// 10,000 characters, SQL and HTML metacharacters. No answer may be a 5xx, and a refused request
// (4xx) changes nothing in the database. A new operation is covered the day it is declared.
// On PGlite and (with DATABASE_URL) PostgreSQL.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import openapi from '../../src/generated/openapi.gen.json' with { type: 'json' };
import type { OperationId } from '../../src/generated/operations.gen.ts';
import { fileHarness, signedIn } from './file-harness.ts';

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; pattern?: string; enum?: unknown[]; minimum?: number; format?: string };
type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema };
type Operation = { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> }; 'x-access'?: string };

const doc = openapi as unknown as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
const resolve = (s: Schema): Schema => (s.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()!]) : s);

const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map(([method, op]) => ({ path, method, ...op })));

/** One kind of hostile value: what goes in JSON, and what goes in a URL. */
const KINDS: { label: string; json: unknown; text: string }[] = [
  { label: 'NUL', json: 'a\u0000b', text: 'a\u0000b' },
  // A URL cannot carry a lone surrogate (it has no UTF-8 form): the URL gets the replacement character's bytes.
  { label: 'lone surrogate', json: 'x\ud800', text: 'x\ufffd' },
  { label: 'huge number', json: 1e308, text: '99999999999999999999999999' },
  { label: 'negative number', json: -1, text: '-1' },
  { label: 'wrong type (object)', json: { a: [1, { b: null }] }, text: '[object Object]' },
  { label: 'wrong type (boolean)', json: true, text: 'true' },
  { label: '10,000 characters', json: 'x'.repeat(10_000), text: 'x'.repeat(10_000) },
  { label: 'SQL metacharacters', json: "1' OR '1'='1'; DROP TABLE users; --", text: "1' OR '1'='1'; DROP TABLE users; --" },
  { label: 'HTML metacharacters', json: '<script>alert(1)</script><img src=x onerror=alert(1)>', text: '<script>alert(1)</script>' },
];

/** A path value that passes its schema, so the hostile value elsewhere reaches validation and the handler. */
function validPathValue(s: Schema): string {
  const schema = resolve(s);
  if (schema.enum) return String(schema.enum[0]);
  if (schema.type === 'integer' || schema.type === 'number') return String(Math.max(1, schema.minimum ?? 1));
  const samples: Record<string, string> = {
    '^ck_[A-Za-z0-9_-]{16,40}$': `ck_${'a'.repeat(20)}`, '^[a-z0-9_.-]{1,64}$': 'clave', '^[A-Za-z]{2}$': 'CO', '^[0-9]{1,2}$': '5',
    '^[0-9]{1,18}$': '1', '^[A-Za-z0-9_-]{16,64}$': 'A'.repeat(32),
  };
  return schema.pattern ? (samples[schema.pattern] ?? 'x') : 'x';
}

const ROLES = ['superadmin', 'platform', 'manager', 'develop', 'admin', 'analista'];
const h = fileHarness();
const tokens = signedIn(h, ...ROLES);

/** Every base table's rows, digested (the audit log records refused attempts on purpose; tokens record their last use; the throttle counts every request, refused ones included). */
async function fingerprint(): Promise<Record<string, string>> {
  const tables = (await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not in ('audit_log', 'tokens', 'throttle_counters') order by 1`.execute(h.db)).rows;
  const parts = tables.map((t) => sql`select ${t.table_name} as t, md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as d from ${sql.table(t.table_name)} r`);
  const rows = (await sql<{ t: string; d: string }>`${sql.join(parts, sql` union all `)}`.execute(h.db)).rows;
  const revoked = (await h.db.selectFrom('tokens').select(['id', 'revoked_at']).orderBy('id').execute()).map((r) => `${r.id}:${r.revoked_at?.toISOString() ?? ''}`).join(',');
  return Object.fromEntries([...rows.map((r) => [r.t, r.d]), ['tokens.revoked', revoked]]);
}

describe('hostile values sent to every operation of the OpenAPI document', () => {
  it('the document declares the operations (the fuzz covers them all)', () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  it('an integer beyond its column is refused naming the field; a bigint id takes it', async () => {
    const int4 = await h.op('campaigns.get', { token: tokens.manager, params: { id: '3000000000' } });
    expect(int4.statusCode).toBe(400);
    expect(int4.json()).toMatchObject({ code: '99931', errors: [expect.objectContaining({ field: 'id' })] });
    const bigint = await h.op('deployments.get', { token: tokens.manager, params: { id: '3000000000' } });
    expect(bigint.statusCode).toBe(404);
  });

  it.each(operations.map((op) => [op.operationId, op] as const))('%s answers no 5xx and changes nothing when it refuses', async (id, op) => {
    const params = (op.parameters ?? []).filter((p) => p.in !== 'header');
    const body = op.requestBody?.content['application/json']?.schema;
    const bodyProps = body ? Object.keys(resolve(body).properties ?? {}) : [];
    const pathParams = params.filter((p) => p.in === 'path');
    const queryParams = params.filter((p) => p.in === 'query');
    // Nothing a caller can make hostile (e.g. sign-out): nothing to send.
    if (!bodyProps.length && !queryParams.length && !pathParams.length && !body) return;

    // The first role that may call it (public operations: no session).
    const roles = op['x-access'] === 'public' ? [null] : ROLES;
    const call = (role: string | null, kind: (typeof KINDS)[number], target: 'path' | 'inputs') => {
      const pathValues = Object.fromEntries(pathParams.map((p) => [p.name, target === 'path' ? kind.text : validPathValue(p.schema)]));
      const query = target === 'inputs' ? Object.fromEntries(queryParams.map((p) => [p.name, kind.text])) : undefined;
      const hostileBody = body === undefined ? undefined
        : target === 'inputs' ? (bodyProps.length ? Object.fromEntries(bodyProps.map((k) => [k, kind.json])) : kind.json) : {};
      return h.op(id as OperationId, { params: pathValues, ...(query && Object.keys(query).length ? { query } : {}), ...(hostileBody === undefined ? {} : { body: hostileBody }), ...(role ? { token: tokens[role] } : {}) });
    };

    const targets: ('path' | 'inputs')[] = [...(pathParams.length ? ['path' as const] : []), ...(bodyProps.length || queryParams.length || body ? ['inputs' as const] : [])];
    let before = await fingerprint();
    for (const target of targets) {
      for (const kind of KINDS) {
        let answer = null;
        for (const role of roles) {
          answer = await call(role, kind, target);
          expect(answer.statusCode, `${target} ${kind.label} as ${role}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
          const code = answer.statusCode >= 400 ? (answer.json() as { code?: string }).code : undefined;
          if (code !== '99982' && code !== '99953') break;
        }
        if (answer!.statusCode >= 400) {
          expect(await fingerprint(), `${target} ${kind.label} was refused (${answer!.statusCode}) but changed the database`).toEqual(before);
        } else {
          // Accepted (a hostile-looking name is still a name): the change is legitimate; compare from here on.
          before = await fingerprint();
        }
      }
    }
  });
});
