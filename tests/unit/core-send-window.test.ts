// src/core/send-window.ts: Ley 2300 de 2023 (research/protocols.md §0.5) as the default profile,
// the spec's daily 08:00–21:00 as profile "spec", custom profiles, and "held, never dropped".
// Instants are written in UTC; Bogotá is UTC−5, so 12:00Z is 07:00 there.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  SendWindowError, decide, isInsideWindow, nextAllowed, profileProblems, resolvePolicy, summarize, windowCloses,
  type SendPolicy, type SendWindowProfile,
} from '../../src/core/send-window.ts';

/** A Bogotá wall time "YYYY-MM-DD HH:MM[:SS]" as an instant (UTC−5, no DST). */
const bog = (s: string) => new Date(s.replace(' ', 'T') + (s.length === 16 ? ':00' : '') + '-05:00');
const iso = (d: Date) => d.toISOString();

const noSaturday: SendWindowProfile = {
  weekdays: { from: '07:00', to: '19:00' }, saturday: null, sunday: null, holidays: false,
};

describe('decide: commercial under Ley 2300 (law2300, the default)', () => {
  // [now in Bogotá, send?, next allowed in Bogotá, reason]
  it.each([
    ['2026-01-13 07:00', true, '2026-01-13 07:00', null], // Tuesday: the window opens at 07:00, inclusive
    ['2026-01-13 06:59:59', false, '2026-01-13 07:00', 'beforeHours'],
    ['2026-01-13 18:59:59', true, '2026-01-13 18:59:59', null],
    ['2026-01-13 19:00', false, '2026-01-14 07:00', 'afterHours'], // [from, to): 19:00 is out
    ['2026-01-10 08:00', true, '2026-01-10 08:00', null], // Saturday opens at 08:00
    ['2026-01-10 07:30', false, '2026-01-10 08:00', 'beforeHours'],
    ['2026-01-10 14:59', true, '2026-01-10 14:59', null],
    ['2026-01-10 15:00', false, '2026-01-13 07:00', 'afterHours'], // Sunday closed, Monday 12th a holiday → Tuesday
    ['2026-01-11 10:00', false, '2026-01-13 07:00', 'closedDay'], // Sunday
    ['2026-01-12 10:00', false, '2026-01-13 07:00', 'holiday'], // Reyes Magos moved to Monday 12 Jan
    ['2026-01-09 19:00', false, '2026-01-10 08:00', 'afterHours'], // Friday evening → Saturday 08:00
    ['2026-01-17 15:00', false, '2026-01-19 07:00', 'afterHours'], // Saturday afternoon → Monday 07:00
    ['2026-12-31 19:30', false, '2027-01-02 08:00', 'afterHours'], // 1 Jan holiday, 2 Jan a Saturday
    ['2026-12-31 18:00', true, '2026-12-31 18:00', null],
    ['2026-04-01 20:00', false, '2026-04-04 08:00', 'afterHours'], // Jueves and Viernes Santo in a row → Saturday
    ['2026-03-22 12:00', false, '2026-03-24 07:00', 'closedDay'], // Sunday then San José Monday
  ])('%s → send %s, at %s (%s)', (now, send, at, reason) => {
    const d = decide(bog(now), 'commercial');
    expect(d.send).toBe(send);
    expect(iso(d.at)).toBe(iso(bog(at)));
    expect(d.send ? null : (d as { reason: string }).reason).toBe(reason);
    expect(isInsideWindow(bog(now))).toBe(send);
    expect(iso(nextAllowed(bog(now)))).toBe(iso(bog(at)));
  });
});

describe('decide: transactional and OTP always pass', () => {
  it.each([
    ['2026-01-11 03:00', 'transactional'], ['2026-01-12 23:30', 'otp'], ['2026-12-25 12:00', 'transactional'],
  ] as const)('%s %s', (now, kind) => {
    expect(decide(bog(now), kind)).toEqual({ send: true, at: bog(now) });
  });
});

describe('other profiles', () => {
  // [policy, now, next allowed]
  it.each<[string, SendPolicy, string, string]>([
    ['spec: Sunday 08:00', 'spec', '2026-01-11 08:00', '2026-01-11 08:00'],
    ['spec: holiday Monday 20:59', 'spec', '2026-01-12 20:59', '2026-01-12 20:59'],
    ['spec: 21:00 → next day 08:00', 'spec', '2026-01-12 21:00', '2026-01-13 08:00'],
    ['spec: 07:59', 'spec', '2026-12-25 07:59', '2026-12-25 08:00'],
    ['no Saturday: Friday 19:00 → Monday 07:00', noSaturday, '2026-01-16 19:00', '2026-01-19 07:00'],
    ['no Saturday: Friday 19:00 → Tuesday when Monday is a holiday', noSaturday, '2026-01-09 19:00', '2026-01-13 07:00'],
    ['holidays keep the usual window when true', { ...noSaturday, holidays: true }, '2026-01-12 06:00', '2026-01-12 07:00'],
    ['a holiday window of its own', { ...noSaturday, holidays: { from: '10:00', to: '12:00' } }, '2026-01-12 06:00', '2026-01-12 10:00'],
    ['per-day override: Wednesday afternoons only', { ...noSaturday, wednesday: { from: '14:00', to: '18:00' } }, '2026-01-14 09:00', '2026-01-14 14:00'],
    ['per-day override closes Friday', { ...noSaturday, friday: null }, '2026-01-15 19:00', '2026-01-19 07:00'],
    ['"24:00" closes at midnight', { ...noSaturday, weekdays: { from: '07:00', to: '24:00' } }, '2026-01-13 23:59:59', '2026-01-13 23:59:59'],
    ['corrections: an extra holiday closes the day', { profile: 'law2300', holidays: { extra: ['2026-01-13'] } }, '2026-01-13 10:00', '2026-01-14 07:00'],
    ['corrections: a removed holiday opens it', { profile: 'law2300', holidays: { removed: ['2026-01-12'] } }, '2026-01-12 10:00', '2026-01-12 10:00'],
    ['Chiquinquirá when configured', { profile: 'law2300', holidays: { virgenDeChiquinquira: true } }, '2026-07-13 10:00', '2026-07-14 07:00'],
    ['Chiquinquirá not by default', 'law2300', '2026-07-13 10:00', '2026-07-13 10:00'],
  ])('%s', (_label, policy, now, at) => {
    expect(iso(nextAllowed(bog(now), policy))).toBe(iso(bog(at)));
  });

  it('a policy in a zone with DST keeps the wall-clock hours (New York, across spring forward)', () => {
    const policy: SendPolicy = { profile: 'law2300', timeZone: 'America/New_York' };
    // Saturday 2026-03-07 16:00 EST → Monday 2026-03-09 07:00 EDT (11:00Z, not 12:00Z).
    expect(iso(nextAllowed(new Date('2026-03-07T21:00:00Z'), policy))).toBe('2026-03-09T11:00:00.000Z');
    expect(isInsideWindow(new Date('2026-03-09T11:00:00Z'), policy)).toBe(true);
    expect(isInsideWindow(new Date('2026-03-09T10:59:59Z'), policy)).toBe(false);
  });
});

describe('held, never dropped', () => {
  it('finds a slot from every hour of two years, always inside the window and never earlier', () => {
    const policy = resolvePolicy('law2300');
    for (let t = bog('2025-12-20 00:00').getTime(); t < bog('2027-12-31 00:00').getTime(); t += 3_600_000 * 7) {
      const at = nextAllowed(new Date(t), policy);
      expect(at.getTime()).toBeGreaterThanOrEqual(t);
      expect(at.getTime() - t).toBeLessThan(4 * 86_400_000); // no gap in the law's calendar is longer
      expect(isInsideWindow(at, policy)).toBe(true);
    }
  });

  it('a profile that opens only on holidays still finds its next holiday across the year end', () => {
    const onlyHolidays: SendWindowProfile = { weekdays: null, saturday: null, sunday: null, holidays: { from: '09:00', to: '10:00' } };
    expect(iso(nextAllowed(bog('2026-12-25 10:00'), onlyHolidays))).toBe(iso(bog('2027-01-01 09:00')));
  });

  it.each<[string, SendWindowProfile, string]>([
    ['never opens', { weekdays: null, saturday: null, sunday: null, holidays: false }, 'neverOpens'],
    ['an empty window', { ...noSaturday, weekdays: { from: '19:00', to: '07:00' } }, 'emptyWindow'],
    ['a malformed time', { ...noSaturday, saturday: { from: '8:00', to: '15:00' } }, 'invalidTime'],
  ])('a profile that %s is refused with %s', (_label, profile, code) => {
    expect(profileProblems(profile).map((p) => p.code)).toContain(code);
    expect(() => nextAllowed(bog('2026-01-13 10:00'), profile)).toThrow(SendWindowError);
    expect(() => decide(bog('2026-01-13 10:00'), 'commercial', profile)).toThrow(SendWindowError);
  });

  it('the built-in profiles have no problems', () => {
    expect(profileProblems(resolvePolicy('law2300').profile)).toEqual([]);
    expect(profileProblems(resolvePolicy('spec').profile)).toEqual([]);
  });

  it('an unknown profile name or time zone is a clear error', () => {
    expect(() => nextAllowed(bog('2026-01-13 10:00'), 'weekend' as never)).toThrow(/unknown send-window profile/);
    expect(() => nextAllowed(bog('2026-01-13 10:00'), { profile: 'law2300', timeZone: 'Mars/Olympus' })).toThrow(/unknown time zone/);
  });
});

describe('windowCloses', () => {
  it.each([
    ['2026-01-13 10:00', '2026-01-13 19:00'],
    ['2026-01-10 09:00', '2026-01-10 15:00'],
    ['2026-01-11 09:00', null],
  ])('%s → %s', (now, want) => {
    const closes = windowCloses(bog(now));
    expect(closes && iso(closes)).toBe(want && iso(bog(want)));
  });
});

describe('summarize: what the campaign screen says before launch', () => {
  it.each([
    // [label, plan, now, options, onTime, releases]
    ['inside the window, no rate: all go now', 1000, '2026-01-13 10:00', {}, 1000, []],
    ['outside: all wait', 1000, '2026-01-13 19:30', {}, 0, [['2026-01-14 07:00', 1000]]],
    ['transactional: all go', 1000, '2026-01-11 03:00', { kind: 'transactional' }, 1000, []],
    // 10 minutes left at 5 messages/s: 3000 leave, 2000 wait for Saturday 08:00.
    ['closing with a rate: some go, the rest wait', 5000, '2026-01-09 18:50', { ratePerSecond: 5 }, 3000, [['2026-01-10 08:00', 2000]]],
    ['with a rate that fits: all go', 100, '2026-01-09 18:50', { ratePerSecond: 5 }, 100, []],
    ['nothing to send', 0, '2026-01-11 10:00', {}, 0, []],
  ] as const)('%s', (_label, plan, now, options, onTime, releases) => {
    const s = summarize(plan, bog(now), 'law2300', options);
    expect(s.total).toBe(plan);
    expect(s.onTime).toBe(onTime);
    expect(s.held).toBe(plan - onTime);
    expect(s.releases.map((r) => [iso(r.at), r.count])).toEqual(releases.map(([at, n]) => [iso(bog(at)), n]));
  });

  it('a schedule of instants: past ones go now, each held one is grouped by its release', () => {
    const plan = [
      bog('2026-01-13 09:00'), // in the past: goes now
      bog('2026-01-13 12:00'), // later today inside the window: on time
      bog('2026-01-13 20:00'), bog('2026-01-13 21:00'), // evening → Wednesday 07:00
      bog('2026-01-12 09:00'), // in the past, but "now" is what counts: on time
      bog('2026-01-17 16:00'), // Saturday after 15:00 → Monday 07:00
    ];
    const s = summarize(plan, bog('2026-01-13 10:00'));
    expect({ total: s.total, onTime: s.onTime, held: s.held }).toEqual({ total: 6, onTime: 3, held: 3 });
    expect(s.releases.map((r) => [iso(r.at), r.count])).toEqual([[iso(bog('2026-01-14 07:00')), 2], [iso(bog('2026-01-19 07:00')), 1]]);
  });

  it.each([-1, 1.5])('refuses a count of %s', (n) => {
    expect(() => summarize(n, bog('2026-01-13 10:00'))).toThrow(RangeError);
  });
});

describe('independent of the process time zone', () => {
  it.each(['America/New_York', 'Asia/Tokyo'])('TZ=%s gives the same answers as Bogotá', (tz) => {
    const script = `
      const { decide } = await import('./src/core/send-window.ts');
      const cases = ['2026-01-09T23:59:59Z', '2026-01-10T00:00:00Z', '2026-01-10T20:00:00Z', '2026-01-12T15:00:00Z', '2027-01-01T00:30:00Z'];
      console.log(JSON.stringify(cases.map((c) => decide(new Date(c), 'commercial'))));`;
    const run = (zone: string) =>
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, TZ: zone }, cwd: process.cwd(), encoding: 'utf8' });
    const there = JSON.parse(run(tz));
    expect(there).toEqual(JSON.parse(run('America/Bogota')));
    expect(there.map((d: { send: boolean; at: string }) => [d.send, d.at])).toEqual([
      [true, '2026-01-09T23:59:59.000Z'], // Friday 18:59:59
      [false, '2026-01-10T13:00:00.000Z'], // Friday 19:00 → Saturday 08:00
      [false, '2026-01-13T12:00:00.000Z'], // Saturday 15:00 → Tuesday 07:00 (Monday a holiday)
      [false, '2026-01-13T12:00:00.000Z'], // the holiday itself
      [false, '2027-01-02T13:00:00.000Z'], // 31 Dec 19:30 → Saturday 2 Jan 08:00
    ]);
  });
});
