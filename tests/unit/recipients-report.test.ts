// The error report of a recipients upload (src/engine/recipients/error-report.ts): fail and
// error rows only, original cells, problems, formula-safe in CSV and XLSX.
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ErrorReportWriter, ingestRecipients, writeErrorReport } from '../../src/engine/recipients/index.ts';
import { chunks } from '../fixtures/recipients/helpers.ts';

const upload = [
  'telefono;nombre;nota',
  '3001234567;Ana;ok',
  "=cmd|' /C calc'!A0;Mallory;\"=HYPERLINK(\"\"http://evil.co\"\",\"\"clic\"\")\"",
  '3109876543;;@SUM(1+1)',
  '"3201112233"x;Bad;-2+3',
].join('\r\n');

function sink(): { out: Writable; text: () => string; bytes: () => Buffer } {
  const parts: Buffer[] = [];
  const out = new Writable({ write(chunk, _enc, done) { parts.push(Buffer.from(chunk)); done(); } });
  return { out, text: () => Buffer.concat(parts).toString('utf8'), bytes: () => Buffer.concat(parts) };
}

describe('error report', () => {
  it('CSV: BOM, CRLF, the fail/error rows with their cells and problems; formulas escaped', async () => {
    const run = ingestRecipients(chunks(upload), { fileName: 'campaña.csv', variables: ['nombre'] });
    const { out, text } = sink();
    const n = await writeErrorReport(run, out, { format: 'csv', headers: () => run.summary.headers, separator: ';' });
    expect(n).toBe(3);
    expect(text()).toBe('\ufeff' + [
      'Fila;telefono;nombre;nota;Problemas',
      "3;'=cmd|' /C calc'!A0;Mallory;\"'=HYPERLINK(\"\"http://evil.co\"\",\"\"clic\"\")\";invalidPhone (telefono)",
      "4;3109876543;;'@SUM(1+1);requiredValue (nombre)",
      "5;3201112233x;Bad;'-2+3;malformedQuotes",
    ].join('\r\n') + '\r\n');
  });

  it('translated problems and labels', async () => {
    const run = ingestRecipients(chunks('3001234567\n12345\n'), { fileName: 'numeros.csv' });
    const { out, text } = sink();
    await writeErrorReport(run, out, { format: 'csv', headers: [], labels: { row: 'Row', phone: 'Phone', problems: 'Problems' }, describe: (p) => (p.code === 'invalidPhone' ? 'Invalid phone' : p.code) });
    expect(text()).toBe('\ufeffRow,Phone,Problems\r\n2,12345,Invalid phone\r\n');
  });

  it('XLSX: the same rows; a formula-looking cell is stored as text with an apostrophe, never as a formula', async () => {
    const run = ingestRecipients(chunks(upload), { fileName: 'campaña.csv', variables: ['nombre'] });
    const out = new PassThrough();
    const parts: Buffer[] = [];
    out.on('data', (c: Buffer) => parts.push(c));
    const rows = [];
    for await (const row of run) rows.push(row);
    const writer = new ErrorReportWriter(out, { format: 'xlsx', headers: run.summary.headers });
    for (const row of rows) await writer.add(row);
    await writer.end();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(parts) as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('errores')!;
    const values = (r: number) => (ws.getRow(r).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['Fila', 'telefono', 'nombre', 'nota', 'Problemas']);
    expect(values(2)).toEqual([3, "'=cmd|' /C calc'!A0", 'Mallory', "'=HYPERLINK(\"http://evil.co\",\"clic\")", 'invalidPhone (telefono)']);
    expect(ws.getCell('B2').type).toBe(ExcelJS.ValueType.String);
    expect(values(4)).toEqual([5, '3201112233x', 'Bad', "'-2+3", 'malformedQuotes']);
    expect(ws.rowCount).toBe(4);
  });
});
