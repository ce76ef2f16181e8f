// The pre-launch summary is the launch itself, rolled back. What it predicts
// (duplicates against messages already sent, the block list, the send-window hold, the credits
// of each rendered message) is what the launch then does, and every message that did not go says
// why in words with its code (campaigns.messages `reason`).
import { beforeAll, describe, expect, it } from 'vitest';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let smsChannelId: number;

beforeAll(async () => {
  const channels = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json();
  smsChannelId = channels.items[0].id;
});

const csv = (text: string) => multipart('file', 'clientes.csv', 'text/csv', Buffer.from(text, 'utf8'));

async function campaignWith(name: string, content: string, rows: string, purpose = 'transactional') {
  const campaign = (await h.op('campaigns.create', { token: tokens.manager, body: { name, kind: 'open', purpose, channelId: smsChannelId, content } })).json();
  expect((await h.op('campaigns.uploadRecipients', { token: tokens.manager, params: { id: campaign.id }, ...csv(rows) })).statusCode).toBe(200);
  return campaign.id as number;
}
const preview = async (id: number) => (await h.op('campaigns.preview', { token: tokens.manager, params: { id } })).json();
const launch = async (id: number) => (await h.op('campaigns.launch', { token: tokens.manager, params: { id } })).json();
const reasons = async (id: number, deploymentId: number) =>
  (await h.op('campaigns.messages', { token: tokens.manager, params: { id }, query: { deploymentId, pageSize: 200 } })).json().items
    .map((m: { toNumber: string; reason: unknown }) => m.reason);

describe('the summary is the launch, rolled back', () => {
  it('predicts a relaunch within the duplicate window as all duplicates, and the launch refuses exactly those (93)', async () => {
    const id = await campaignWith('Recordatorio', 'Recuerda tu cita de mañana', 'telefono\n3001110001\n3001110002\n3001110003\n');
    const first = await preview(id);
    expect(first).toMatchObject({ recipients: 3, staged: 3, estimated: false, goNow: 3, duplicates: 0, credits: 3, duplicateHours: 24 });
    const sent = await launch(id);
    expect(sent).toMatchObject({ total: 3, going: 3, reservedCredits: first.credits, refused: { duplicate: 0 } });

    h.clock.advance(3_600_000);
    const again = await preview(id);
    expect(again).toMatchObject({ recipients: 3, goNow: 0, wait: 0, duplicates: 3, credits: 0 });
    const balance = (await h.op('credits.balance', { token: tokens.manager })).json();
    const relaunched = await launch(id);
    expect(relaunched).toMatchObject({ total: 3, going: 0, reservedCredits: again.credits, counts: { rejected: 3 }, refused: { duplicate: 3, blocked: 0 } });
    expect((await h.op('credits.balance', { token: tokens.manager })).json()).toEqual(balance);
    expect(await reasons(id, relaunched.id)).toEqual(Array(3).fill({ kind: 'duplicate', code: '93', hours: 24, until: null }));
    // The preview left nothing behind: only the two launches' deployments exist.
    const runs = (await h.op('deployments.list', { token: tokens.manager, query: { campaignId: id } })).json();
    expect(runs.total).toBe(2);
  });

  it('prices every row past the staged ones as the launch does: a big file\'s credits, parts and refusals are its own, never the first rows\' scaled', async () => {
    const content = 'Hola {{nombre}}, tu pedido va en camino.';
    // Sent before to one number: the same text again within the window is a duplicate (93).
    expect((await launch(await campaignWith('Antes', content, 'telefono;nombre\n3001110108;Mar\n'))).total).toBe(1);
    // Short names in the first four rows (staged); past them a long name (2 parts), an accented one
    // (UCS-2), the blocked number, the duplicate, a repeat within the file and a non-number.
    const rows = [
      ['3001110101', 'Ana'], ['3001110103', 'Luis'], ['3001110104', 'Eva'], ['3001110105', 'Jo'],
      ['3001110106', 'Maximiliano '.repeat(12).trim()], ['3001110107', 'Raúl'], ['3001112233', 'Bloqueado'], ['3001110108', 'Mar'],
      ['3001110109', 'Paz'], ['3001110101', 'Ana'], ['abc', 'Malo'],
    ];
    const id = await campaignWith('Grande', content, `telefono;nombre\n${rows.map((r) => r.join(';')).join('\n')}\n`);
    process.env.PREVIEW_STAGED_MAX = '4';
    let partly: Record<string, unknown>;
    try {
      partly = await preview(id);
    } finally {
      delete process.env.PREVIEW_STAGED_MAX;
    }
    // Seven go: six of one part and the long name's two. Scaling the first four rows (one part
    // each, none refused) would have said 9 credits and nothing refused.
    expect(partly).toMatchObject({ recipients: 9, staged: 4, estimated: false, blocked: 1, duplicates: 2, goNow: 7, credits: 8, parts: 8, partsMin: 1, partsMax: 2, encoding: 'GSM-7 + UCS-2', ucs2Characters: ['ú'], ucs2Rows: 1, invalid: 1 });
    // Staged whole, the launch says the same (bar which rows were staged and the samples).
    const whole = await preview(id);
    const { staged: _a, samples: _b, ...same } = partly as Record<string, unknown>;
    expect(whole).toMatchObject({ ...same, staged: 9 });
    // And the launch reserves exactly that.
    expect(await launch(id)).toMatchObject({ total: 9, reservedCredits: 8, refused: { blocked: 1, duplicate: 1 } });
  });

  it('predicts the block list (5) as the launch applies it', async () => {
    // +573001112233 is on the demo block list, in force.
    const id = await campaignWith('Bloqueados', 'Tu factura está lista', 'telefono\n3001112233\n3001110011\n');
    expect(await preview(id)).toMatchObject({ recipients: 2, goNow: 1, blocked: 1, credits: 1 });
    const run = await launch(id);
    expect(run).toMatchObject({ going: 1, reservedCredits: 1, refused: { blocked: 1 } });
    expect(await reasons(id, run.id)).toContainEqual({ kind: 'blockList', code: '5', hours: null, until: null });
  });

  it('predicts the send-window hold and its instant, and the messages say until when', async () => {
    // 03:30 UTC is 22:30 in Bogotá: commercial messages wait for the next allowed slot.
    // The next 03:30 UTC, up to a day ahead: longer than a session token lasts (tokenTtlHours,
    // 12 h), so the manager signs in again at the new time.
    const night = new Date(h.clock.now);
    night.setUTCHours(3, 30, 0, 0);
    if (night.getTime() <= h.clock.now.getTime()) night.setUTCDate(night.getUTCDate() + 1);
    h.clock.advance(night.getTime() - h.clock.now.getTime());
    tokens.manager = (await h.as('manager')).token;
    const id = await campaignWith('Promoción nocturna', 'Descuento del 20% hoy', 'telefono\n3001110021\n3001110022\n', 'commercial');
    const summary = await preview(id);
    expect(summary).toMatchObject({ recipients: 2, goNow: 0, wait: 2, credits: 2 });
    expect(new Date(summary.waitUntil).getTime()).toBeGreaterThan(h.clock.now.getTime());
    const run = await launch(id);
    expect(run).toMatchObject({ going: 0, reservedCredits: 2, counts: { held: 2 } });
    expect(await reasons(id, run.id)).toEqual(Array(2).fill({ kind: 'sendWindow', code: 'held', hours: null, until: summary.waitUntil }));
  });

  it('prices each rendered message: accented names switch some to UCS-2 and two parts, and the launch reserves what the summary said', async () => {
    // 95 GSM-7 characters without the name: one part in GSM-7, two in UCS-2 (over 70).
    const content = 'Hola {{nombre}}, tu pedido 4471 ya salio de bodega y llega manana entre 8am y 12m. Gracias!!';
    const id = await campaignWith('Pedido en camino', content, 'telefono;nombre\n3001110031;Ana\n3001110032;María\n3001110033;Raúl\n3001110034;Pedro\n');
    const summary = await preview(id);
    expect(summary).toMatchObject({
      recipients: 4, goNow: 4, partsMin: 1, partsMax: 2, parts: 6, encoding: 'GSM-7 + UCS-2', ucs2Characters: ['í', 'ú'], ucs2Rows: 2,
    });
    expect(summary.samples).toEqual([
      `+573001110031: ${content.replace('{{nombre}}', 'Ana')}`,
      `+573001110032: ${content.replace('{{nombre}}', 'María')}`,
      `+573001110033: ${content.replace('{{nombre}}', 'Raúl')}`,
    ]);
    const run = await launch(id);
    expect(run.reservedCredits).toBe(summary.credits);
    const parts = (await h.op('campaigns.messages', { token: tokens.manager, params: { id }, query: { deploymentId: run.id } })).json().items.map((m: { parts: number }) => m.parts);
    expect(parts).toEqual([1, 2, 2, 1]);
  });
});
