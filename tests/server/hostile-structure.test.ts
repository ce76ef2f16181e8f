// Hostile structure: JSON bodies nested thousands of levels deep are refused by the body parser
// (99931, 400) before anything walks them, on routes open to anyone and on signed-in ones, and
// the server keeps answering; a flow whose regular expression RE2 cannot run is saved with its
// problem named and never published. On PGlite and (with DATABASE_URL) PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { JSON_DEPTH_MAX } from '../../src/server/http/json-body.ts';
import { menuFlow } from '../unit/flows-fixtures.ts';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();
let manager = '';

beforeAll(async () => {
  manager = (await h.as('manager')).token;
});

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
/** Brackets inside strings are text, not nesting. */
const bracketsInStrings = (n: number) => JSON.stringify({ email: '['.repeat(n) + '{'.repeat(n) });

describe('JSON nested deeper than JSON_DEPTH_MAX', () => {
  it.each([JSON_DEPTH_MAX + 1, 7_000, 100_000])('%i levels to an operation open to anyone answer 400 99931, and /health still answers', async (depth) => {
    for (const payload of [arrays(depth), objects(depth)]) {
      const res = await h.op('clientAuth.validate', { payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: '99931', errors: [{ field: '', code: '99931' }] });
      expect(res.json().message).toContain(`deeper than ${JSON_DEPTH_MAX}`);
    }
    const health = await h.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
  });

  it('a deep body unclosed, or with a charset, is refused the same way', async () => {
    const unclosed = await h.op('clientAuth.validate', { payload: '['.repeat(50_000), headers: { 'content-type': 'application/json' } });
    expect([unclosed.statusCode, unclosed.json().code]).toEqual([400, '99931']);
    expect(unclosed.json().message).toContain(`deeper than ${JSON_DEPTH_MAX}`);
    const charset = await h.op('clientAuth.validate', { payload: arrays(10_000), headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect([charset.statusCode, charset.json().code]).toEqual([400, '99931']);
    expect(charset.json().message).toContain(`deeper than ${JSON_DEPTH_MAX}`);
  });

  it('a deep body to a signed-in operation is refused before its handler', async () => {
    const res = await h.op('flows.create', { token: manager, payload: JSON.stringify({ name: 'Hondo', draft: JSON.parse(objects(JSON_DEPTH_MAX - 5)) }).replace('1', objects(200)), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('99931');
    expect(res.json().message).toContain(`deeper than ${JSON_DEPTH_MAX}`);
    expect(await h.db.selectFrom('flows').select('id').where('name', '=', 'Hondo').executeTakeFirst()).toBeUndefined();
  });

  it('nesting up to the limit is parsed and judged by the schema; brackets inside strings do not count', async () => {
    const atLimit = await h.op('clientAuth.validate', { payload: `{"email":${arrays(JSON_DEPTH_MAX - 1)}}`, headers: { 'content-type': 'application/json' } });
    expect(atLimit.statusCode).toBe(400);
    expect(atLimit.json().code).toBe('99931');
    expect(atLimit.json().message).not.toContain('deeper than');
    expect(atLimit.json().errors[0].field).toBe('email');
    const text = await h.op('clientAuth.validate', { payload: bracketsInStrings(10_000), headers: { 'content-type': 'application/json' } });
    expect(text.statusCode).toBeLessThan(500);
    expect(JSON.stringify(text.json())).not.toContain('deeper than');
  });

  it('prototype poisoning is still refused by the parser', async () => {
    const res = await h.op('clientAuth.validate', { payload: '{"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } });
    expect([res.statusCode, res.json().code]).toEqual([400, '99931']);
  });
});

describe('regular expressions in flows', () => {
  it('a backreference is named regexUnsupported when saved and refuses the publication', async () => {
    const draft = menuFlow();
    draft.steps.find((s) => s.id === 'ask')!.settings.responses![0].pattern = '(a)\\1';
    const created = await h.op('flows.create', { token: manager, body: { name: 'Eco', draft } });
    expect(created.statusCode).toBe(200);
    expect(created.json().problems).toEqual([{ rule: 'regexUnsupported', stepId: 'ask', field: 'responses.0' }]);
    const refused = await h.op('flows.publish', { token: manager, params: { id: created.json().id } });
    expect([refused.statusCode, refused.json().code]).toEqual([409, '99901']);
    expect(refused.json().errors).toEqual([expect.objectContaining({ code: 'regexUnsupported' })]);
  });

  it('^(a+)+$ is a pattern RE2 runs: the flow is published', async () => {
    const draft = menuFlow();
    draft.steps.find((s) => s.id === 'ask')!.settings.responses![0].pattern = '^(a+)+$';
    const created = await h.op('flows.create', { token: manager, body: { name: 'Lineal', draft } });
    expect(created.json().problems).toEqual([]);
    const published = await h.op('flows.publish', { token: manager, params: { id: created.json().id } });
    expect(published.statusCode).toBe(200);
  });
});
