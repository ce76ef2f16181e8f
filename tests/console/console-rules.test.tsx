// Pure console rules: landing/home choice, the menu tree, expressions, formats, chunk reload,
// and locale coverage of the console's own keys.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n, i18n } from '../../src/console/app/i18n.ts';
import { isChunkLoadError, reloadOnceForChunkError, withChunkReload } from '../../src/console/app/chunk-reload.ts';
import { interpolate, pick, resolveObject } from '../../src/console/runtime/expressions.ts';
import { formatCop, formatDateTime } from '../../src/console/runtime/format.ts';
import { FALLBACK_HOME, homeAfterSignIn, homeFor } from '../../src/console/shell/home.ts';
import { routes } from '../../src/generated/routes.gen.ts';
import { flattenTree, menuTree } from '../../src/console/shell/menu-tree.ts';
import { redirectFor } from '../../src/console/shell/guards.tsx';
import { makeUser, stateUsers, users } from '../../src/console/stories/fixtures.ts';

describe('where a user lands', () => {
  it('follows the state rules, then the default module, then the first menu entry', () => {
    expect(homeFor(stateUsers.pending)).toBe('/userValidation?email=analista%40demo.colibri.co');
    expect(homeFor(stateUsers.companyValidation)).toBe('/validation');
    expect(homeFor(stateUsers.needsNewPassword)).toBe('/resetPassword');
    expect(homeFor(stateUsers.disabled)).toBe('/notActive');
    expect(homeFor(users.manager)).toBe('/User');
    expect(homeFor(makeUser(['manager'], { permissions: { ...users.manager.permissions, defaultModule: 'campaigns.templates' } }))).toBe('/Campaigns/Templates');
    // ops has no dashboard: the first entry it sees that works (the Campaigns group opens its list)
    expect(homeFor(makeUser(['ops'], { permissions: { ...makeUser(['ops']).permissions, defaultModule: '/User' } }))).toBe('/Campaigns/campaigns');
    // A default module that is a group leads to its first working child, never "not available yet".
    expect(homeFor(makeUser(['develop'], { permissions: { ...makeUser(['develop']).permissions, defaultModule: '/Campaigns' } }))).toBe('/Campaigns/campaigns');
    expect(homeFor(makeUser(['analista'], { permissions: { menu: [], defaultModule: '' } }))).toBe(FALLBACK_HOME);
  });

  it('a sign-in lands where homeFor says (the state landing first); a client sign-in on the first client route, when there is one', async () => {
    expect(await homeAfterSignIn(stateUsers.pending, 'client')).toBe('/userValidation?email=analista%40demo.colibri.co');
    expect(await homeAfterSignIn(users.manager, undefined)).toBe('/User');
    const clientRoute = routes.find((r) => r.path.startsWith('/Client/') && !r.path.includes(':'))?.path;
    expect(await homeAfterSignIn(users.manager, 'client')).toBe(clientRoute ?? '/User');
  });

  it('guards: session, landing, reduced screen', () => {
    expect(redirectFor(null, '/User', 'full')).toBe('/signin');
    expect(redirectFor(stateUsers.disabled, '/User', 'full')).toBe('/notActive');
    expect(redirectFor(stateUsers.disabled, '/notActive', 'reduced')).toBeNull();
    expect(redirectFor(stateUsers.validation, '/notActive', 'reduced')).toBe('/validation');
    expect(redirectFor(users.analista, '/notActive', 'reduced')).toBe('__home__');
    expect(redirectFor(users.analista, '/User', 'full')).toBeNull();
  });
});

describe('menu tree', () => {
  it('nests visible, non-hidden nodes and drops what the role may not see', () => {
    const keys = (u: typeof users.analista) => flattenTree(menuTree(u)).map((n) => n.key);
    expect(keys(users.analista)).toContain('settings.channels');
    expect(keys(users.analista)).not.toContain('settings.areas');
    expect(keys(users.manager)).toContain('settings.areas');
    expect(keys(users.manager)).not.toContain('security');
    const settings = menuTree(users.manager).find((t) => t.node.key === 'settings')!;
    expect(settings.children.map((c) => c.node.key)).toContain('settings.users');
  });

  it("names every entry, a group's own entry too, in both languages (an entry without a label is a link without a name)", () => {
    const locales = Object.fromEntries(['es', 'en'].map((l) => [l, JSON.parse(readFileSync(`locales/${l}/menu.json`, 'utf8')) as Record<string, string>]));
    const missing = new Set<string>();
    const walk = (items: ReturnType<typeof menuTree>) => {
      for (const item of items) {
        const key = (item.own ? `${item.node.label}.own` : item.node.label).replace(/^menu\./, '');
        for (const [lang, words] of Object.entries(locales)) if (!words[key]?.trim()) missing.add(`${lang}:${key}`);
        walk(item.children);
      }
    };
    for (const user of Object.values(users)) walk(menuTree(user));
    expect([...missing]).toEqual([]);
  });
});

describe('expressions and formats', () => {
  it('resolves $session, $query, $row and interpolates navigation targets', () => {
    const ctx = { session: { idUser: 5 }, query: new URLSearchParams('email=a%40b.co'), row: { id: 9 } };
    expect(resolveObject({ id: '$session.idUser', email: '$query.email', ids: ['$row.id'], all: 'all', missing: '$query.nope' }, ctx)).toEqual({ id: 5, email: 'a@b.co', ids: [9], all: 'all' });
    expect(interpolate('/userValidation?email={email}', { email: 'ana+1@acme.co' })).toBe('/userValidation?email=ana%2B1%40acme.co');
    expect(pick([1, 2, 3], '$length')).toBe(3);
    expect(pick({ a: { b: 2 } }, 'a.b')).toBe(2);
  });

  it('formats COP in es-CO and dates as YYYY/MM/DD h:mma', () => {
    expect(formatCop(1250000).replace(/\s/g, ' ')).toBe('$ 1.250.000');
    expect(formatDateTime(new Date(2025, 0, 5, 15, 7))).toBe('2025/01/05 3:07pm');
    expect(formatDateTime(new Date(2025, 0, 5, 0, 0))).toBe('2025/01/05 12:00am');
  });
});

describe('chunk reload', () => {
  afterEach(() => vi.restoreAllMocks());
  it('reloads once for a failed chunk, not in a loop', async () => {
    sessionStorage.clear();
    const reload = vi.fn();
    Object.defineProperty(window, 'location', { configurable: true, value: { ...window.location, reload } });
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/FormScreen-x.js'))).toBe(true);
    expect(reloadOnceForChunkError(1_000_000)).toBe(true);
    expect(reloadOnceForChunkError(1_000_500)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    const load = withChunkReload(() => Promise.reject(new Error('boom')));
    await expect(load()).rejects.toThrow('boom');
  });
});

describe('locales', () => {
  const read = (lng: string, ns: string) => JSON.parse(readFileSync(join('locales', lng, `${ns}.json`), 'utf8')) as Record<string, string>;

  it('the console namespaces have the same keys in Spanish and English', () => {
    for (const ns of ['common', 'shell', 'validation']) expect(Object.keys(read('en', ns)).sort()).toEqual(Object.keys(read('es', ns)).sort());
  });

  it('every key the console code names exists in both languages', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(f) && !/\.stories\.tsx$/.test(f) && !p.includes('/stories/')) files.push(p);
      }
    };
    walk('src/console');
    const keys = new Set<string>();
    for (const f of files) for (const m of readFileSync(f, 'utf8').matchAll(/['`]((?:common|shell|validation|errors|screens|fields|menu|enums)\.[A-Za-z0-9.-]+)['`]/g)) keys.add(m[1]);
    expect(keys.size).toBeGreaterThan(30);
    const missing = [...keys].filter((k) => !k.endsWith('.') && !['es', 'en'].every((lng) => i18n.exists(k, { lng })));
    expect(missing).toEqual([]);
  });

  it('resolves "menu.campaigns.deploy" next to "menu.campaigns" and falls back along key lists', () => {
    expect(i18n.t('menu.campaigns', { lng: 'es' })).toBe(read('es', 'menu').campaigns);
    expect(i18n.t('menu.campaigns.deploy', { lng: 'es' })).toBe(read('es', 'menu')['campaigns.deploy']);
    expect(i18n.t('menu.campaigns.deploy', { lng: 'en' })).toBe(read('en', 'menu')['campaigns.deploy']);
    expect(i18n.t(['validation.required.email', 'validation.required'], { lng: 'en' })).toBe('This field is required.');
    expect(i18n.t(['validation.required.acceptTerms', 'validation.required'], { lng: 'es' })).toBe('Debes aceptar los términos y condiciones.');
  });

  it('starts in Spanish and restores a saved choice', () => {
    localStorage.clear();
    expect(createI18n().language).toBe('es');
    localStorage.setItem('language', 'en');
    expect(createI18n().language).toBe('en');
    localStorage.setItem('language', 'fr');
    expect(createI18n().language).toBe('es');
    localStorage.clear();
  });
});

describe('motion and route changes', () => {
  it('a system that asks for less motion gets the theme without transitions', async () => {
    const { render } = await import('@testing-library/react');
    const { useTheme } = await import('@mui/material/styles');
    const { AppProviders } = await import('../../src/console/app/providers.tsx');
    const { REDUCED_MOTION, reducedMotionTheme, theme } = await import('../../src/console/app/theme.ts');
    expect(reducedMotionTheme.transitions.create('height')).toBe('none');
    expect(reducedMotionTheme.components?.MuiCollapse?.defaultProps?.timeout).toBe(0);
    expect(theme.transitions.create('height')).not.toBe('none');
    const seen: string[] = [];
    const Probe = () => {
      seen.push(useTheme().transitions.create('height'));
      return null;
    };
    const original = window.matchMedia;
    for (const reduce of [true, false]) {
      window.matchMedia = ((query: string) => ({ matches: reduce && query === REDUCED_MOTION, media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
      const view = render(<AppProviders><Probe /></AppProviders>);
      expect(seen.at(-1)).toBe(reduce ? 'none' : theme.transitions.create('height'));
      view.unmount();
    }
    window.matchMedia = original;
  });

  it('each route mounts its own screen (and loading boundary), keyed by its path', async () => {
    const { appRoutes } = await import('../../src/console/app/routing.tsx');
    const leaves = (rs: ReturnType<typeof appRoutes>): { path?: string; element?: unknown }[] => rs.flatMap((r) => [...(r.path && r.path !== '*' ? [r] : []), ...leaves(r.children ?? [])]);
    const all = leaves(appRoutes());
    expect(all.length).toBeGreaterThan(20);
    for (const r of all) expect((r.element as { key: string | null }).key).toBe(r.path);
  });
});
