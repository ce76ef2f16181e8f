// The credits' ledger (GET /v1/payments/ledger, /Payments/Ledger): every movement of the company's
// credits, newest first, each signed by what it did to the balance, with the balance after it —
// so the newest row is the balance the home shows, whatever happened (a grant, a launch's
// reservation, what it gave back). Only the company's own, only for those who see Payments.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';
import { otherCompany } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager', 'analista');
let smsChannelId = 0;

beforeAll(async () => {
  smsChannelId = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0].id;
});

const ledger = async (query: Record<string, string | number> = {}, token = tokens.manager) => h.op('payments.ledger', { token, query });
const balance = async () => (await h.op('credits.balance', { token: tokens.manager })).json() as { balance: number; reserved: number };

describe('the credits ledger', () => {
  it('lists every movement newest first, signed by what it did to the balance; the newest balance is the balance', async () => {
    const before = (await ledger()).json();
    expect(before.items[0]).toMatchObject({ kind: 'grant', credits: 1_000_000, balanceAfter: (await balance()).balance });

    // A launch reserves its credits: one more movement, taking them from the balance.
    const campaign = (await h.op('campaigns.create', { token: tokens.manager, body: { kind: 'open', purpose: 'transactional', channelId: smsChannelId, name: 'Libro mayor', content: 'Hola {{nombre}}' } })).json();
    await h.op('campaigns.uploadRecipients', { token: tokens.manager, params: { id: campaign.id }, ...multipart('file', 'a.csv', 'text/csv', Buffer.from('telefono;nombre\n3004441101;Ana\n3004441102;Luis\n')) });
    const launched = (await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaign.id } })).json();
    const after = (await ledger()).json();
    expect(after.total).toBe(before.total + 1);
    expect(after.items[0]).toMatchObject({ kind: 'reserve', credits: -2, deploymentId: launched.id, campaignName: 'Libro mayor', balanceAfter: (await balance()).balance, reservedAfter: (await balance()).reserved });
    // Filtered by kind, and each movement's change adds up to the balance it leaves.
    expect((await ledger({ kind: 'reserve' })).json().items.every((r: { kind: string }) => r.kind === 'reserve')).toBe(true);
    const rows = after.items as { credits: number; balanceAfter: number }[];
    for (let i = 0; i + 1 < rows.length; i++) expect(rows[i + 1].balanceAfter + rows[i].credits).toBe(rows[i].balanceAfter);
  });

  it('is the company\'s own, and needs Payments (8004)', async () => {
    const other = await otherCompany(h, ['sms']);
    const theirs = (await ledger({}, other.token)).json();
    expect(theirs.items.every((r: { campaignName: string | null }) => r.campaignName !== 'Libro mayor')).toBe(true);
    expect((await ledger({}, tokens.analista)).json().code).toBe('99982');
    expect((await ledger({ dateStart: '2026-02-01', dateEnd: '2026-01-01' })).json().code).toBe('99958');
  });
});
