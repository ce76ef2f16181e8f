// Resend from a run: the messages that did not arrive, chosen by their number's latest state, go
// again as a new run of the campaign (`resendOf` names the run), never to a number that got one
// delivered or read, each number once per run resent from, through the launch's send step (its
// credits and block list; the run's own messages are no duplicate of the resend). The run's
// outcomes are written as the receipts would leave them, so each state is met on purpose.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';
import { otherCompany } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let campaignId: number;
let runId: number;

const csv = (text: string) => multipart('file', 'clientes.csv', 'text/csv', Buffer.from(text, 'utf8'));
const resend = (id: number, state: string, token = tokens.manager) => h.op('deployments.resend', { token, params: { id }, body: { state } });
const outcome = (to: string, state: string) => h.db.updateTable('messages').set({ state }).where('deployment_id', '=', runId).where('to_number', '=', to).execute();

beforeAll(async () => {
  const channels = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json();
  const campaign = (await h.op('campaigns.create', { token: tokens.manager, body: { name: 'Reenvío', kind: 'open', purpose: 'transactional', channelId: channels.items[0].id, content: 'Tu código es {{codigo}}' } })).json();
  campaignId = campaign.id;
  await h.op('campaigns.uploadRecipients', { token: tokens.manager, params: { id: campaignId }, ...csv('telefono,codigo\n3005551001,A1\n3005551002,B2\n3005551003,C3\n3005551004,D4\n') });
  runId = (await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaignId } })).json().id;
});

describe('resend from a run', () => {
  it('waits for the run to be over (99984)', async () => {
    expect((await resend(runId, 'failed')).json().code).toBe('99984');
  });

  it('sends the chosen states\' numbers again, as a new run of the campaign with its own messages', async () => {
    await outcome('+573005551001', 'failed');
    await outcome('+573005551002', 'delivered');
    await outcome('+573005551003', 'timeout');
    await outcome('+573005551004', 'failed');
    await h.db.updateTable('deployments').set({ state: 'completed', finished_at: h.clock.now }).where('id', '=', runId).execute();
    // A number whose earlier message in the run failed and a later one was read is not resent.
    await h.db.insertInto('messages').values({
      ...(await h.db.selectFrom('messages').selectAll().where('deployment_id', '=', runId).where('to_number', '=', '+573005551004').executeTakeFirstOrThrow()),
      id: undefined as never, state: 'read',
    } as never).execute();
    const res = await resend(runId, 'failed');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ campaignId, resendOf: runId, total: 1, counts: { queued: 1, rejected: 0 } });
    const messages = await h.db.selectFrom('messages').select(['to_number', 'body', 'state']).where('deployment_id', '=', res.json().id).execute();
    // The same text as the run's: not refused as a duplicate of the message that did not arrive.
    expect(messages).toEqual([{ to_number: '+573005551001', body: 'Tu código es A1', state: 'queued' }]);
    const runs = (await h.op('deployments.list', { token: tokens.manager, query: { campaignId } })).json().items.map((d: { id: number; resendOf: number | null }) => [d.id, d.resendOf]);
    expect(runs).toEqual(expect.arrayContaining([[runId, null], [res.json().id, runId]]));
  });

  it('resends each number once from a run: again is 99985; another state is its own choice', async () => {
    expect((await resend(runId, 'failed')).json().code).toBe('99985');
    const timeout = (await resend(runId, 'timeout')).json();
    expect(timeout.total).toBe(1);
    expect((await h.db.selectFrom('messages').select('to_number').where('deployment_id', '=', timeout.id).execute()).map((m) => m.to_number)).toEqual(['+573005551003']);
    expect((await resend(runId, 'delivered')).json().code).toBe('99931');
  });

  it('answers only the company\'s runs', async () => {
    const other = await otherCompany(h, ['sms']);
    expect((await resend(runId, 'failed', other.token)).json().code).toBe('99959');
  });
});
