// src/core/access.ts: where a signed-in user lands by user and company state (spec 2).
import { describe, expect, it } from 'vitest';
import { allowedWhileRedirected, isFullApp, landingFor, type Landing } from '../../src/core/access.ts';

const company = (state: string) => ({ state });

const cases: [string, string, { state: string } | null, Landing][] = [
  ['active user, active company', 'active', company('active'), null],
  ['pending user', 'pending', company('active'), '/userValidation'],
  ['pending user without company', 'pending', null, '/userValidation'],
  ['no company', 'active', null, '/validation'],
  ['company in validation', 'active', company('validation'), '/validation'],
  ['user in validation', 'validation', company('active'), '/validation'],
  ['needsNewPassword', 'needsNewPassword', company('active'), '/resetPassword'],
  ['ExpiredPassword', 'ExpiredPassword', company('active'), '/resetPassword'],
  ['disabled user', 'disabled', company('active'), '/notActive'],
  ['unknown user state is treated as disabled', 'suspended', company('active'), '/notActive'],
  ['disabled company', 'active', company('disabled'), '/notActive'],
  ['ExpiredPassword in a company still in validation', 'ExpiredPassword', company('validation'), '/validation'],
];

describe('landingFor', () => {
  it.each(cases)('%s', (_name, state, comp, want) => {
    expect(landingFor({ state, company: comp })).toBe(want);
    expect(isFullApp({ state, company: comp })).toBe(want === null);
  });

  it('each landing allows its own route while redirected', () => {
    for (const [landing, routes] of Object.entries(allowedWhileRedirected)) expect(routes).toContain(landing);
  });
});
