// One intake for every upload (src/server/files/intake.ts): an over-limit file is refused
// from its declared length before a byte of it is read, or at the first byte past the limit while
// streaming, before anything is parsed or stored; the block list decodes text as the recipients
// file does (UTF-16 included) and names a zip bomb instead of asking for a phone number.
// On PGlite and (with DATABASE_URL) PostgreSQL.
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import * as XLSX from '@e965/xlsx';
import { beforeAll, describe, expect, it } from 'vitest';
import { constants } from '../../src/generated/constants.gen.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let campaignId: number;
const LIMIT = constants.uploads.campaignFileBytes;

beforeAll(async () => {
  const sms = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0];
  campaignId = (await h.op('campaigns.create', { token: tokens.manager, body: { name: 'Archivo grande', kind: 'open', purpose: 'transactional', channelId: sms.id, content: 'Hola' } })).json().id;
});

/** A multipart body of `fileBytes` bytes of CSV, produced lazily; `read()` says how many bytes the server pulled. */
function lazyUpload(fileBytes: number) {
  const boundary = `----colibri${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="grande.csv"\r\nContent-Type: text/csv\r\n\r\ntelefono\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const line = Buffer.from('3001234567\n');
  let sent = 0;
  let pulled = 0;
  let tailSent = false;
  const total = head.length + fileBytes + tail.length;
  const stream = new Readable({
    read() {
      if (sent === 0) { sent += head.length; pulled += head.length; this.push(head); return; }
      if (sent >= head.length + fileBytes) { if (!tailSent) { tailSent = true; pulled += tail.length; this.push(tail); } else this.push(null); return; }
      const chunk = Buffer.concat(Array.from({ length: 6000 }, () => line));
      sent += chunk.length;
      pulled += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, total, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, pulled: () => pulled };
}

const uploadUrl = () => `/v1/campaigns/${campaignId}/recipients`;

describe('the upload intake', () => {
  it('refuses a 25 MB recipients file from its declared length, reading none of it (99937)', async () => {
    const body = lazyUpload(25 * 1024 * 1024);
    const res = await h.app.inject({ method: 'POST', url: uploadUrl(), headers: { ...body.headers, 'content-length': String(body.total), 'x-auth-token': tokens.manager }, payload: body.stream });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: '99937', errors: [expect.objectContaining({ field: 'file' })] });
    // Nothing of the file was parsed: at most the first chunks the transport had buffered.
    expect(body.pulled()).toBeLessThan(1024 * 1024);
    expect(await h.count('recipient_rows')).toBe(0);
  });

  it('without a declared length, is spooled and counted, and refused past the limit (99937) before any of it is parsed', async () => {
    const body = lazyUpload(60 * 1024 * 1024);
    const res = await h.app.inject({ method: 'POST', url: uploadUrl(), headers: { ...body.headers, 'transfer-encoding': 'chunked', 'x-auth-token': tokens.manager }, payload: body.stream });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().code).toBe('99937');
    // Read off the connection (busboy discards what follows the limit), but nothing was parsed or stored.
    expect(body.pulled()).toBeGreaterThan(LIMIT);
    expect(await h.count('recipient_rows')).toBe(0);
    expect(await h.count('recipient_files')).toBe(0);
  });

  it('the block list takes a UTF-16 CSV as the recipients file does', async () => {
    const text = '\ufefftelefono\r\n3201110301\r\n3201110302\r\n';
    const res = await h.op('blockList.upload', { token: tokens.manager, ...multipart('file', 'bloqueo-utf16.csv', 'text/csv', Buffer.from(text, 'utf16le')) });
    expect(res.statusCode, res.body).toBe(200);
    const listed = (await h.op('blockList.list', { token: tokens.manager, query: { q: '3201110301' } })).json();
    expect(listed.items.map((e: { phone: string }) => e.phone)).toEqual(['+573201110301']);
  });

  it('the block list names a zip bomb with forged sizes instead of asking for a phone number', async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['celular'], [3201110303]]), 'Hoja1');
    const bytes = Buffer.from(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Uint8Array);
    // Every entry of the central directory declares 300 MB once inflated.
    for (let i = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); i !== -1; i = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), i + 4)) bytes.writeUInt32LE(300 * 1024 * 1024, i + 24);
    const res = await h.op('blockList.upload', { token: tokens.manager, ...multipart('file', 'bomba.xlsx', 'application/octet-stream', bytes) });
    expect(res.json()).toMatchObject({ code: '99932', errors: [expect.objectContaining({ field: 'file', message: expect.stringMatching(/inflate|zip bomb/) })] });
  });

  it('a picture past its limit is refused as too large (99937), not as an invalid file', async () => {
    const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(constants.uploads.profilePictureBytes + 10)]);
    const res = await h.op('account.uploadPicture', { token: tokens.manager, params: { id: 1 }, ...multipart('file', 'foto.png', 'image/png', big) });
    expect(res.json().code).toBe('99937');
  });
  it('a broken multipart body is an invalid file (99932) on every upload, through the one error handler', async () => {
    const boundary = '----colibriroto';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv`;
    // The part header never ends (the parser fails before the part opens), or the file is cut
    // short with no closing boundary (the part's stream fails while it is read).
    const bodies = [Buffer.from(head), Buffer.from(`${head}\r\n\r\ntelefono\n3001234567\n`)];
    for (const [url, broken] of [uploadUrl(), '/v1/block-list/upload'].flatMap((u) => bodies.map((b) => [u, b] as const))) {
      const res = await h.app.inject({ method: 'POST', url, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-auth-token': tokens.manager }, payload: broken });
      expect(res.json().code, url).toBe('99932');
      expect(res.statusCode, url).toBe(415);
    }
  });
});
