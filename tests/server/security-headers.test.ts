// Security headers on every answer the server gives: a console route, an API
// answer, a refusal, the 404 of an unknown path and a 401 all carry the policy; the
// browser suite checks that the console runs under it (tests/e2e/security-headers.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../../src/server/http/security-headers.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => { h = await createHarness(); }, 180_000);
afterAll(async () => { await h?.close(); });

const EXPECTED = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'cross-origin-opener-policy': 'same-origin',
};

describe('security headers', () => {
  it("are helmet's, with our policy and no script from elsewhere", () => {
    const headers = securityHeaders();
    expect(headers).toMatchObject(EXPECTED);
    const policy = headers['content-security-policy'];
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).toContain("script-src-attr 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(headers['cross-origin-embedder-policy']).toBeUndefined();
  });

  it('are on every kind of answer', async () => {
    const answers = [
      await h.app.inject({ method: 'GET', url: '/health' }),
      await h.app.inject({ method: 'GET', url: '/v1/no/such/path' }),
      await h.op('clientAuth.signin', { body: { email: 'not-an-email', password: '' } }),
      await h.op('team.list'),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 400, 401]);
    const policy = securityHeaders()['content-security-policy'];
    for (const answer of answers) {
      expect(answer.headers).toMatchObject(EXPECTED);
      expect(answer.headers['content-security-policy']).toBe(policy);
    }
  });

  it('leave a route free to send a stricter policy of its own (the short-link 404 page)', async () => {
    const answer = await h.app.inject({ method: 'GET', url: '/s/zzzzzzzz' });
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(answer.headers['x-frame-options']).toBe('DENY');
  });
});
