// Recurring campaigns: each due run launches a deployment and the next run follows the rule on
// Bogota wall time, anchored on the start day (Jan 31 → Feb 28 → Mar 31); a run that is not due
// launches nothing; after `ends` the campaign is Executed.
import { describe, expect, it } from 'vitest';
import type { ServerDeps } from '../../src/server/context.ts';
import { runDueCampaigns } from '../../src/engine/campaigns/index.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');

const depsAt = (iso: string): ServerDeps => ({
  db: h.db, now: () => new Date(iso),
  messaging: { wake: () => {}, sendWindow: companySendWindow(h.db), shortBaseUrls: [] },
} as unknown as ServerDeps);

describe('recurring campaigns', () => {
  it('launches each due run once and moves to the next one across month ends', async () => {
    const channelId = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0].id;
    const recurrence = { every: 1, unit: 'months', starts: '2027-01-31T14:00:00.000Z', ends: '2027-03-31T23:00:00.000Z', expires: null };
    const campaign = (await h.op('campaigns.create', { token: tokens.manager, body: { name: 'Recordatorio mensual', kind: 'recurring', purpose: 'transactional', channelId, content: 'Tu factura está lista', recurrence } })).json();
    expect(campaign.recurrence).toEqual(recurrence);
    await h.op('campaigns.uploadRecipients', { token: tokens.manager, params: { id: campaign.id }, ...multipart('file', 'mensual.csv', 'text/csv', Buffer.from('telefono\n3005550001\n3005550002\n')) });
    const next = async () => (await h.db.selectFrom('campaigns').select(['next_run_at', 'label']).where('id', '=', campaign.id).executeTakeFirstOrThrow());
    const runs = async () => (await h.db.selectFrom('deployments').select('id').where('campaign_id', '=', campaign.id).execute()).length;

    expect(await runDueCampaigns(depsAt('2027-01-30T12:00:00Z'))).toBe(0);
    expect(await runDueCampaigns(depsAt('2027-01-31T14:00:01Z'))).toBe(1);
    expect((await next()).next_run_at?.toISOString()).toBe('2027-02-28T14:00:00.000Z');
    expect(await runDueCampaigns(depsAt('2027-02-01T00:00:00Z'))).toBe(0);
    expect(await runDueCampaigns(depsAt('2027-02-28T15:00:00Z'))).toBe(1);
    expect((await next()).next_run_at?.toISOString()).toBe('2027-03-31T14:00:00.000Z');
    expect(await runDueCampaigns(depsAt('2027-03-31T14:05:00Z'))).toBe(1);
    expect(await next()).toEqual({ next_run_at: null, label: 'Executed' });
    expect(await runs()).toBe(3);
  });
});
