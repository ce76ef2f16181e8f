// Every upload that reads a spreadsheet goes through one guard (engine/recipients/zip-guard.ts): an
// XLSX whose sheet declares 5,000 bytes but inflates to megabytes is refused at once (99932, 415)
// with nothing stored, on the block list, the shortener, the recipients file and a flow's training
// file. SheetJS reads run in a worker thread (engine/recipients/sheet-thread.ts), so /health answers
// while a large sheet is being read. On PGlite and (with DATABASE_URL) PostgreSQL.
import { once } from 'node:events';
import { beforeAll, describe, expect, it } from 'vitest';
import { sheetParses } from '../../src/engine/recipients/sheet-thread.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';
import { workbook, workbookBomb } from './zip-bytes.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager', 'platform');
let campaignId: number;
let flowId: number;
// 8 MB of sheet behind a directory that says 5,000 bytes: small to send, and past its declared size.
const bomb = workbookBomb(8 * 1024 * 1024);

beforeAll(async () => {
  const sms = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0];
  campaignId = (await h.op('campaigns.create', { token: tokens.manager, body: { name: 'Bomba', kind: 'open', purpose: 'transactional', channelId: sms.id, content: 'Hola' } })).json().id;
  flowId = (await h.op('flows.create', { token: tokens.manager, body: { name: 'Entrenamiento' } })).json().id;
});

const bombRefusal = { code: '99932', errors: [expect.objectContaining({ field: 'file', message: expect.stringMatching(/declared size|zip bomb/) })] };

describe('a zip bomb is refused on every upload, nothing stored', () => {
  it('the block list', async () => {
    const before = await h.count('block_list');
    const res = await h.op('blockList.upload', { token: tokens.manager, ...multipart('file', 'bomba.xlsx', 'application/octet-stream', bomb) });
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json()).toMatchObject(bombRefusal);
    expect(await h.count('block_list')).toBe(before);
  });

  it('the shortener', async () => {
    const before = await h.count('short_links');
    const res = await h.op('shortener.upload', { token: tokens.platform, ...multipart('file', 'bomba.xlsx', 'application/octet-stream', bomb) });
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json()).toMatchObject(bombRefusal);
    expect(await h.count('short_links')).toBe(before);
  });

  it('the recipients file', async () => {
    const file = multipart('file', 'bomba.xlsx', 'application/octet-stream', bomb);
    const res = await h.app.inject({ method: 'POST', url: `/v1/campaigns/${campaignId}/recipients`, headers: { 'x-auth-token': tokens.manager, ...file.headers }, payload: file.payload });
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json().code).toBe('99932');
    expect(await h.count('recipient_rows')).toBe(0);
  });

  it("a flow's training file", async () => {
    const before = await h.count('flow_training_phrases');
    const file = multipart('file', 'bomba.xlsx', 'application/octet-stream', bomb);
    const res = await h.app.inject({ method: 'POST', url: `/v1/flows/${flowId}/training`, headers: { 'x-auth-token': tokens.manager, ...file.headers }, payload: file.payload });
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json().code).toBe('99932');
    expect(await h.count('flow_training_phrases')).toBe(before);
  });

  it('an honest workbook still goes through the same guard and is read', async () => {
    const res = await h.op('blockList.upload', { token: tokens.manager, ...multipart('file', 'bloqueo.xlsx', 'application/octet-stream', workbook(['celular', '3201110301'])) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await h.op('blockList.list', { token: tokens.manager, query: { q: '3201110301' } })).json().items).toHaveLength(1);
  });
});

describe('spreadsheets are read off the event loop', () => {
  it('/health answers while a large sheet is being read in its worker', async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => String(3200000000 + i));
    const file = multipart('file', 'grande.xlsx', 'application/octet-stream', workbook(['celular', ...rows]));
    const started = once(sheetParses, 'start');
    let uploadDone = false;
    const upload = h.op('blockList.upload', { token: tokens.manager, ...file }).then((res) => { uploadDone = true; return res; });
    await started;
    const health = await h.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    // The read was still under way when /health answered: it no longer holds the event loop.
    expect(uploadDone).toBe(false);
    const res = await upload;
    expect(res.statusCode, res.body).toBe(200);
  });
});
