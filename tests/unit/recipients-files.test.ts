// Whole-file rules of campaign recipients uploads (src/engine/recipients): names, extensions vs
// content, the 20 MB limit counted while streaming, Node streams as input.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { constants } from '../../src/generated/constants.gen.ts';
import { formatFromName, ingestRecipients, RecipientsFileError } from '../../src/engine/recipients/index.ts';
import { ingest, zip, workbookParts } from '../fixtures/recipients/helpers.ts';

async function refusal(run: Promise<unknown>): Promise<RecipientsFileError> {
  const error = await run.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(RecipientsFileError);
  return error as RecipientsFileError;
}

describe('file names', () => {
  it.each([
    ['destinatarios.csv', 'csv'],
    ['Campaña Bogotá 2025-06_v2.CSV', 'csv'],
    ['Clientes Medellín.xlsx', 'xlsx'],
    ['lista.antigua.xls', 'xls'],
  ])('%s is a %s', (name, format) => {
    expect(formatFromName(name)).toBe(format);
  });

  it.each([
    ['lista (1).csv', '"("'],
    ['clientes,junio.csv', '","'],
    ['../../etc/passwd.csv', '"/"'],
    ['C:\\fakepath\\x.csv', '"\\\\"'],
    ['promo😀.csv', '"😀"'],
    ['x.txt', '.txt'],
    ['sin extension', 'must be'],
    ['.csv', 'must be'],
    ['', 'no name'],
  ])('%j is refused (99932) saying %s', (name, detail) => {
    let error: unknown;
    try { formatFromName(name); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(RecipientsFileError);
    expect((error as RecipientsFileError).code).toBe('99932');
    expect((error as RecipientsFileError).status).toBe(415);
    expect((error as RecipientsFileError).message).toContain(detail);
  });
});

describe('content must match the extension', () => {
  const xlsx = zip(workbookParts('<row r="1"><c r="A1" t="inlineStr"><is><t>telefono</t></is></c></row><row r="2"><c r="A2"><v>3001234567</v></c></row>'));

  it.each([
    ['a .xlsx that is really a CSV', 'x.xlsx', Buffer.from('telefono\n3001234567\n'), 'its content is text'],
    ['a .csv that is really an XLSX', 'x.csv', xlsx, 'XLSX/ZIP'],
    ['a .csv that is an image', 'x.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 'an image'],
    ['a .csv that is binary', 'x.csv', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]), 'not text'],
    ['a .xls that is an XLSX', 'x.xls', xlsx, 'XLSX/ZIP'],
    ['a .xls that is an HTML table', 'x.xls', Buffer.from('<html><table><tr><td>3001234567</td></tr></table></html>'), 'its content is text'],
    ['an empty file', 'x.csv', Buffer.alloc(0), 'empty'],
  ])('%s: 99932', async (_, fileName, bytes, reason) => {
    const error = await refusal(ingest(bytes, { fileName }));
    expect(error.code).toBe('99932');
    expect(error.message).toContain(reason);
  });
});

describe('size limit (uploads.campaignFileBytes, 99937)', () => {
  it('a declared size over the limit is refused before a byte is read', async () => {
    let pulled = 0;
    async function* source() { pulled++; yield Buffer.from('telefono\n'); }
    const error = await refusal(ingest(source(), { declaredBytes: constants.uploads.campaignFileBytes + 1 }));
    expect(error).toMatchObject({ code: '99937' });
    expect(error.status).toBe(413);
    expect(pulled).toBe(0);
  });

  it('an undeclared 21 MB stream is cut at the first chunk past 20 MB, rows before it already given', async () => {
    const line = Buffer.from('3001234567\n'.repeat(6000)); // 66,000 bytes
    let pulled = 0;
    async function* source() {
      yield Buffer.from('telefono\n');
      for (let i = 0; i < 400; i++) { pulled++; yield line; }
    }
    const run = ingestRecipients(source(), { fileName: 'grande.csv' });
    let rows = 0;
    const error = await (async () => { for await (const batch of run.batches()) rows += batch.length; })().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(RecipientsFileError);
    expect((error as RecipientsFileError).code).toBe('99937');
    const limitChunks = Math.ceil((constants.uploads.campaignFileBytes - 9) / line.length);
    expect(pulled).toBe(limitChunks);
    expect(rows).toBeGreaterThan(0);
    expect(run.summary.done).toBe(false);
  });

  it('the limit applies to XLSX before the workbook is opened', async () => {
    const bytes = zip(workbookParts('<row r="1"><c r="A1" t="inlineStr"><is><t>telefono</t></is></c></row>'));
    expect(await refusal(ingest(bytes, { fileName: 'x.xlsx', limits: { maxBytes: bytes.length - 1 } }))).toMatchObject({ code: '99937' });
  });
});

describe('inputs', () => {
  it('reads a Node Readable (fs stream of the committed Windows-1252 fixture)', async () => {
    const run = ingestRecipients(createReadStream(new URL('../fixtures/recipients/windows-1252.csv', import.meta.url), { highWaterMark: 7 }), { fileName: 'windows-1252.csv', variables: ['nombre'] });
    const rows = [];
    for await (const row of run) rows.push(row);
    expect(rows.map((r) => r.variables.nombre)).toEqual(['Ñoño', 'José']);
    expect(run.summary).toMatchObject({ encoding: 'windows-1252', bytes: 74, done: true });
  });

  it('a Readable with an encoding set yields strings: still read as bytes', async () => {
    const stream = Readable.from(['telefono,nombre\n', '3001234567,Ñoño\n']);
    const { rows } = await ingest(stream as AsyncIterable<Uint8Array>, { variables: ['nombre'] });
    expect(rows[0].variables).toEqual({ nombre: 'Ñoño' });
  });

  it('a file is read once', () => {
    const run = ingestRecipients([Buffer.from('telefono\n3001234567\n')] as unknown as AsyncIterable<Uint8Array>, { fileName: 'x.csv' });
    run.batches();
    expect(() => run.batches()).toThrow('once');
  });
});
