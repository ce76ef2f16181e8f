// src/core/permissions.ts: can(), the menu rules (roles any-of, flags all-of, plan exclusions,
// ancestors) and the default grants derived from config/menu.yaml.
import { describe, expect, it } from 'vitest';
import { can, chainAllows, defaultGrants, menuNodeByPath, nodeAllows, visibleMenu, type Grant } from '../../src/core/permissions.ts';
import { menuNodes } from '../../src/generated/menu.gen.ts';

const grants: Grant[] = [{ id: 6002, actions: ['view', 'edit'] }, { id: 10, actions: ['view'] }];

describe('can', () => {
  it.each([
    [6002, 'view', { can: true }],
    [6002, 'edit', { can: true }],
    [6002, 'delete', { can: false, reason: 'noAction' }],
    [6001, 'view', { can: false, reason: 'noComponent' }],
    [10, 'view', { can: true }],
  ])('component %i, action %s', (component, action, want) => {
    expect(can(grants, component, action)).toEqual(want);
  });

  it('no grants, no access', () => {
    expect(can([], 10, 'view').can).toBe(false);
  });
});

describe('nodeAllows', () => {
  const viewer = (roles: string[], planType: string | null = null) => ({ roles, planType, productKey: 'colibri' });
  it.each([
    ['no role list is open to all', { roles: null, flags: [], planExclude: [] }, viewer(['ops']), true],
    ['a listed role', { roles: ['admin', 'manager'], flags: [], planExclude: [] }, viewer(['manager']), true],
    ['no listed role', { roles: ['admin', 'manager'], flags: [], planExclude: [] }, viewer(['analista']), false],
    ['a flag held as a role', { roles: null, flags: ['develop'], planExclude: [] }, viewer(['develop']), true],
    ['a missing flag', { roles: null, flags: ['develop'], planExclude: [] }, viewer(['admin']), false],
    ['productSms is the {product}Sms role', { roles: null, flags: ['productSms'], planExclude: [] }, viewer(['colibriSms']), true],
    ['all flags needed', { roles: null, flags: ['productSms', 'platform'], planExclude: [] }, viewer(['colibriSms']), false],
    ['plan excluded', { roles: null, flags: [], planExclude: ['subscription'] }, viewer(['admin'], 'subscription'), false],
    ['other plan', { roles: null, flags: [], planExclude: ['subscription'] }, viewer(['admin'], 'pilot'), true],
  ])('%s', (_name, node, v, want) => {
    expect(nodeAllows(node as never, v)).toBe(want);
  });
});

describe('chainAllows', () => {
  it('a child is refused when an ancestor refuses', () => {
    const history = menuNodes.find((n) => n.key === 'payments.history')!;
    expect(chainAllows(history, { roles: ['analista'], productKey: 'colibri' })).toBe(false); // payments: superadmin, manager, admin
    expect(chainAllows(history, { roles: ['admin'], productKey: 'colibri' })).toBe(true);
    expect(chainAllows(history, { roles: ['admin'], planType: 'subscription', productKey: 'colibri' })).toBe(false);
  });

  it('a subscription plan neither buys nor reads the purchase history, and sees its quota as promotional credits', () => {
    const node = (key: string) => menuNodes.find((n) => n.key === key)!;
    const subscription = { roles: ['manager'], planType: 'subscription', productKey: 'colibri' } as const;
    expect(['payments.general', 'payments.history', 'payments.promotions'].map((k) => chainAllows(node(k), subscription))).toEqual([false, false, true]);
    expect(['payments.general', 'payments.history', 'payments.promotions'].map((k) => chainAllows(node(k), { ...subscription, planType: 'pilot' }))).toEqual([true, true, true]);
  });
});

describe('defaultGrants', () => {
  const ids = (roles: string[]) => defaultGrants(roles, 'colibri').map((g) => g.id);

  it.each([
    ['superadmin', 6002, true],
    ['manager', 6002, true],
    ['admin', 6002, true],
    ['analista', 6002, false], // spec 2: management is superadmin, manager, admin
    ['superadmin', 6001, true],
    ['admin', 6001, false], // areas: superadmin, manager
    ['analista', 10, true],
    ['ops', 10, false], // dashboard: superadmin, admin, analista, manager
    ['develop', 4005, true],
    ['analista', 4005, false],
    ['platform', 50, true], // shortener: platform
    ['superadmin', 50, false],
    ['colibriSms', 4011, true], // call center: {product}Sms
    ['superadmin', 4011, false],
    ['analista', 7001, true], // change password: everyone
    ['ops', 6007, true], // roles screen: no role list, open to all
  ])('%s has component %i: %s', (role, component, want) => {
    expect(ids([role]).includes(component)).toBe(want);
  });

  it('grants the declared actions, subtabs included, sorted by id', () => {
    const grants = defaultGrants(['superadmin'], 'colibri');
    expect(grants.find((g) => g.id === 6002)?.actions).toEqual(['view', 'create', 'edit', 'delete']);
    expect(grants.find((g) => g.id === 200101)?.actions).toEqual(['view', 'create', 'edit', 'delete', 'deploy']);
    expect(grants.map((g) => g.id)).toEqual([...grants.map((g) => g.id)].sort((a, b) => a - b));
  });

  it('disabled pages grant nothing', () => {
    expect(defaultGrants(['superadmin'], 'colibri', [6002]).some((g) => g.id === 6002)).toBe(false);
  });

  it('several roles give the union', () => {
    const both = ids(['analista', 'develop']);
    expect(both).toContain(10);
    expect(both).toContain(4005);
  });
});

describe('visibleMenu and menuNodeByPath', () => {
  it('shows the nodes the grants and roles allow', () => {
    const roles = ['analista'];
    const keys = visibleMenu(defaultGrants(roles, 'colibri'), { roles, productKey: 'colibri' }).map((n) => n.key);
    expect(keys).toContain('dashboard');
    expect(keys).toContain('settings.channels');
    expect(keys).not.toContain('settings.users');
    expect(keys).not.toContain('payments');
    expect(keys).not.toContain('shortener');
  });

  it('a node is hidden when its component is not granted, even if the roles fit', () => {
    const keys = visibleMenu([], { roles: ['superadmin'], productKey: 'colibri' }).map((n) => n.key);
    expect(keys).not.toContain('dashboard');
    expect(keys).toContain('notifications'); // no component id: follows its roles only
  });

  it('finds nodes by path', () => {
    expect(menuNodeByPath('/profile/management')?.id).toBe(6002);
    expect(menuNodeByPath('/nowhere')).toBeUndefined();
  });
});
