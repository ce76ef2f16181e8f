// Security headers in a real browser: every page of the console comes with a
// Content-Security-Policy that allows no inline script and no eval, and the console runs under it:
// a schema form's checks, signing in, the home and a page of charts (Vega) raise no
// `securitypolicyviolation` and no CSP error in the console. The product runs with the default throttling limits: using the console as a person
// does never meets them.
import { describe, expect, it } from 'vitest';
import { newPage, productAndBrowser, signIn } from './harness.ts';

const e2e = productAndBrowser({ env: { THROTTLE_GLOBAL: '', THROTTLE_SIGNIN: '', THROTTLE_REGISTER: '', THROTTLE_RECOVERY: '', THROTTLE_OTP: '' } });

/** The directive's sources, from a policy header. */
const directive = (policy: string, name: string) => policy.split(';').map((d) => d.trim().split(/\s+/)).find(([n]) => n === name)?.slice(1) ?? null;

describe('the Content-Security-Policy', () => {
  it('allows no inline script, and the console works under it: sign-in, home and charts without a violation', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    // Collected by the page itself (the init script comes from the browser's driver, not the page).
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
    });
    const consoleErrors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error' && /Content[- ]Security[- ]Policy|Refused to/i.test(m.text())) consoleErrors.push(m.text()); });
    const throttled: string[] = [];
    page.on('response', (r) => { if (r.status() === 429) throttled.push(r.url()); });

    const first = await page.goto('/signin');
    const policy = first!.headers()['content-security-policy'];
    expect(policy).toBeTruthy();
    const scripts = directive(policy, 'script-src')!;
    expect(scripts).toContain("'self'");
    expect(scripts).not.toContain("'unsafe-inline'");
    // No eval either: the schema forms validate by interpreting the schema (schema-validator.ts).
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(directive(policy, 'script-src-attr')).toEqual(["'none'"]);
    expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
    expect(directive(policy, 'object-src')).toEqual(["'none'"]);
    expect(first!.headers()['x-frame-options']).toBe('DENY');
    expect(first!.headers()['x-content-type-options']).toBe('nosniff');

    // An inline script is refused: the policy is enforced, not only sent.
    const inlineRan = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.appendChild(s);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(inlineRan).toBe(false);
    const refused = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations.splice(0));
    expect(refused.some((v) => v.startsWith('script-src'))).toBe(true);
    consoleErrors.length = 0;

    // A schema form checks its values in the page under the policy: a repeat that differs, a
    // missing name and a malformed e-mail are refused in words before anything is sent.
    await page.goto('/register');
    await page.getByLabel(/^Correo corporativo/).fill('no-es-un-correo');
    await page.getByLabel(/^Contraseña/).fill('Andinas#2026');
    await page.getByLabel(/^Repite la contraseña/).fill('Andinas#2027');
    await page.getByRole('button', { name: 'Registrarme' }).click();
    await page.getByText('No coincide con Contraseña.').waitFor();
    await expect.poll(() => page.getByText('Este campo es obligatorio.').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/register');

    await signIn(page, 'admin@demo.colibri.co', { lands: '**/User' });
    await page.getByRole('heading', { level: 1, name: 'Inicio' }).waitFor();
    // A page of charts: Vega draws its bars (expressions interpreted, no eval).
    await page.goto('/Charts');
    const chart = page.getByRole('img', { name: 'Canales por tipo y dirección' });
    await chart.waitFor({ timeout: 60_000 });
    await expect.poll(() => chart.locator('svg path, svg rect').count()).toBeGreaterThan(0);

    const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(throttled).toEqual([]);
    await context.close();
  });

  it('API answers and errors carry the headers too', async () => {
    const res = await fetch(`${e2e.product.url}/v1/none`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
  });
});
