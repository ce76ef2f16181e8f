// What a campaign promises about time is what the engine does: the campaign record says when its
// messages would really leave if launched now (firstSendAt: the launch instant moved into the
// company's send window), why (holdReason, and the holiday by name), the rule in force, and the
// words its Launch button takes (launchTiming); a launch then holds its messages until exactly
// that instant. Under Ley 2300 (the default) Tuesday 2026-12-08 is a holiday (Inmaculada
// Concepción), so commercial messages wait until Wednesday 07:00 Bogotá; transactional ones go.
import { beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();
let token = '';
let smsChannelId = 0;

/** A Bogotá wall time (UTC−5, no daylight saving) as an instant. */
const bogota = (ymdhm: string) => new Date(`${ymdhm}:00-05:00`);
const WEDNESDAY_OPENING = bogota('2026-12-09T07:00').toISOString();

/** Moves the clock to a Bogotá wall time and signs in there (a session idles out across hours). */
async function at(ymdhm: string): Promise<void> {
  h.clock.now = bogota(ymdhm);
  token = (await h.signin(demoEmail('manager'))).token;
}

beforeAll(async () => {
  // Monday 2026-12-07, 09:00 in Bogotá: inside the window.
  await at('2026-12-07T09:00');
  smsChannelId = (await h.op('channels.list', { token, query: { platform: 'sms', enabled: 'true' } })).json().items[0].id;
});

const create = async (body: Record<string, unknown>) => {
  const res = await h.op('campaigns.create', { token, body: { kind: 'open', purpose: 'commercial', channelId: smsChannelId, content: 'Promoción de diciembre', ...body } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, unknown> & { id: number };
};
const get = async (id: number) => (await h.op('campaigns.get', { token, params: { id } })).json();
const setRule = (sendWindowProfile: string) =>
  h.op('messagingSettings.update', { token, body: { callbackUrl: null, sendWindowProfile, duplicateWindowHours: 24, smsFallbackChannelId: null } });

describe('when a campaign really sends', () => {
  it('names the holiday that holds a scheduled campaign, and the launch holds its messages until that moment', async () => {
    const scheduledAt = bogota('2026-12-08T10:00').toISOString();
    const campaign = await create({ name: 'Festivo programada', kind: 'scheduled', scheduledAt });
    expect(campaign).toMatchObject({
      scheduledAt, firstSendAt: WEDNESDAY_OPENING, holdReason: 'holiday', holiday: 'inmaculadaConcepcion', sendRule: 'law2300', launchTiming: 'scheduledHoliday',
    });
    // The list says the same.
    const listed = (await h.op('campaigns.list', { token, query: { pageSize: 200 } })).json().items.find((c: { id: number }) => c.id === campaign.id);
    expect(listed).toMatchObject({ firstSendAt: WEDNESDAY_OPENING, launchTiming: 'scheduledHoliday' });

    expect((await h.op('campaigns.pasteRecipients', { token, params: { id: campaign.id }, body: { numbers: '3004440201 3004440202' } })).statusCode).toBe(200);
    const launched = await h.op('campaigns.launch', { token, params: { id: campaign.id } });
    expect(launched.statusCode, launched.body).toBe(200);
    const held = await h.db.selectFrom('messages').select(['not_before']).where('deployment_id', '=', launched.json().id).execute();
    expect(held).toHaveLength(2);
    expect(held.map((m) => m.not_before?.toISOString())).toEqual([WEDNESDAY_OPENING, WEDNESDAY_OPENING]);
  });

  it('holds an open campaign launched after hours until the next opening, past the holiday; a transactional one is not held', async () => {
    await at('2026-12-07T21:30');
    const open = await create({ name: 'Abierta de noche' });
    expect(open).toMatchObject({ firstSendAt: WEDNESDAY_OPENING, holdReason: 'afterHours', holiday: null, launchTiming: 'held' });
    const transactional = await create({ name: 'Pedido de noche', purpose: 'transactional' });
    expect(transactional).toMatchObject({ firstSendAt: h.clock.now.toISOString(), holdReason: null, launchTiming: 'now' });
    // A recurring campaign's Launch runs it now: the same moment, and it says it repeats.
    await at('2026-12-07T10:00');
    const recurring = await create({ name: 'Recurrente', kind: 'recurring', recurrence: { every: 1, unit: 'weeks', starts: bogota('2026-12-10T09:00').toISOString() } });
    expect(recurring).toMatchObject({ firstSendAt: h.clock.now.toISOString(), holdReason: null, launchTiming: 'recurring' });
  });

  it('lists a recurring campaign\'s next five runs when they really go, and an edited rule moves them', async () => {
    await at('2026-12-07T10:00');
    // Every Sunday at 09:00: Ley 2300 closes Sundays, so each run's messages leave on Monday at 07:00;
    // Monday 2027-01-11 is Reyes Magos (moved from the 6th), so that week's wait until Tuesday.
    const weekly = await create({ name: 'Domingos', kind: 'recurring', recurrence: { every: 1, unit: 'weeks', starts: bogota('2026-12-13T09:00').toISOString() } });
    expect(weekly.nextRuns).toEqual(['2026-12-14T07:00', '2026-12-21T07:00', '2026-12-28T07:00', '2027-01-04T07:00', '2027-01-12T07:00'].map((t) => bogota(t).toISOString()));
    // The rule edited: daily from the holiday; the scheduler's next run moves with it.
    const edited = await h.op('campaigns.update', { token, params: { id: weekly.id }, body: { recurrence: { every: 1, unit: 'days', starts: bogota('2026-12-08T09:00').toISOString() } } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().nextRuns).toEqual(['2026-12-09T07:00', '2026-12-09T09:00', '2026-12-10T09:00', '2026-12-11T09:00', '2026-12-12T09:00'].map((t) => bogota(t).toISOString()));
    const stored = await h.db.selectFrom('campaigns').select('next_run_at').where('id', '=', weekly.id).executeTakeFirstOrThrow();
    expect(stored.next_run_at?.toISOString()).toBe(bogota('2026-12-08T09:00').toISOString());
    // Other kinds list none.
    expect((await create({ name: 'Sin recurrencia' })).nextRuns).toEqual([]);
  });

  it('follows the company\'s rule: the spec\'s daily 08:00–21:00 window sends on holidays', async () => {
    await at('2026-12-07T09:00');
    expect((await setRule('spec')).statusCode).toBe(200);
    try {
      const scheduledAt = bogota('2026-12-08T10:00').toISOString();
      const campaign = await create({ name: 'Festivo con la regla del spec', kind: 'scheduled', scheduledAt });
      expect(campaign).toMatchObject({ firstSendAt: scheduledAt, holdReason: null, holiday: null, sendRule: 'spec', launchTiming: 'scheduled' });
      // 21:30 is after the spec's window: the next opening is 08:00, on the holiday itself.
      const late = await create({ name: 'Tarde con la regla del spec', kind: 'scheduled', scheduledAt: bogota('2026-12-07T21:30').toISOString() });
      expect(late).toMatchObject({ firstSendAt: bogota('2026-12-08T08:00').toISOString(), holdReason: 'afterHours', launchTiming: 'scheduledHeld' });
      expect(await get(late.id)).toMatchObject({ firstSendAt: bogota('2026-12-08T08:00').toISOString() });
    } finally {
      await setRule('law2300');
    }
  });
});
