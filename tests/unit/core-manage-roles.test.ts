// Who may change settings by default (menu manageRoles) and what a menu shows for company roles.
import { describe, it, expect } from 'vitest';
import { defaultGrants, visibleMenu, nodeKeyAllows, can } from '../../src/core/permissions.ts';

const grantsOf = (role: string) => defaultGrants([role], 'colibri');

describe('manageRoles keep the mutating actions of settings with the managers', () => {
  const table: [string, number, string, boolean][] = [
    ['analista', 60, 'view', true],
    ['analista', 60, 'create', false],
    ['analista', 6003, 'view', true],
    ['analista', 6003, 'edit', false],
    ['analista', 6007, 'create', false],
    ['ops', 6004, 'create', false],
    ['manager', 60, 'create', true],
    ['manager', 6002, 'create', true],
    ['manager', 6007, 'create', true],
    ['admin', 6003, 'edit', true],
    ['superadmin', 6005, 'delete', true],
    ['develop', 6006, 'edit', true], // quota keeps its own managers: develop and admin
    ['manager', 6006, 'view', false], // and only they see it
    ['analista', 2001, 'create', true], // campaigns are not settings: analysts send them
    ['analista', 7001, 'edit', true], // their own password
  ];
  it.each(table)('%s on %i may %s: %s', (role, component, action, want) => {
    expect(can(grantsOf(role), component, action).can).toBe(want);
  });
});

describe('menu visibility', () => {
  const viewer = (roles: string[]) => ({ roles, productKey: 'colibri' });
  it('a company role sees the nodes its grants name, whatever its name', () => {
    const keys = visibleMenu([{ id: 60, actions: ['view'] }, { id: 6002, actions: ['view'] }], viewer(['Coordinador'])).map((n) => n.key);
    expect(keys).toContain('settings.users');
    expect(keys).not.toContain('settings.blockList');
  });
  it('a node without its own id still follows its role list (channels)', () => {
    expect(visibleMenu(grantsOf('analista'), viewer(['analista'])).map((n) => n.key)).toContain('settings.channels');
    expect(visibleMenu(grantsOf('ops'), viewer(['ops'])).map((n) => n.key)).not.toContain('settings.channels');
  });
  it('payment history is hidden on a subscription plan', () => {
    const grants = grantsOf('manager');
    expect(visibleMenu(grants, { ...viewer(['manager']), planType: 'subscription' }).map((n) => n.key)).not.toContain('payments.history');
    expect(visibleMenu(grants, { ...viewer(['manager']), planType: 'pilot' }).map((n) => n.key)).toContain('payments.history');
  });
  it('nodeKeyAllows answers the chain of a node', () => {
    expect(nodeKeyAllows('settings.channels', viewer(['analista']))).toBe(true);
    expect(nodeKeyAllows('settings.channels', viewer(['ops']))).toBe(false);
    expect(nodeKeyAllows('no.such.node', viewer(['superadmin']))).toBe(false);
  });
});
