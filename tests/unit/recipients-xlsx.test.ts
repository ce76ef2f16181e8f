// Campaign recipients spreadsheets (src/engine/recipients): the streaming XLSX reader (cached
// formula values, shared strings, numbers without scientific notation, dates, sparse cells), the
// zip guard against bombs and lying directories, damaged workbooks, and legacy XLS via SheetJS.
import { crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { RecipientsFileError } from '../../src/engine/recipients/index.ts';
import { brief, ingest, workbookParts, zip, type ZipPart } from '../fixtures/recipients/helpers.ts';

async function refusal(run: Promise<unknown>): Promise<RecipientsFileError> {
  const error = await run.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(RecipientsFileError);
  return error as RecipientsFileError;
}

const xlsx = (bytes: Uint8Array, options: Parameters<typeof ingest>[1] = {}) => ingest(bytes, { fileName: 'clientes.xlsx', chunk: 4096, ...options });

describe('XLSX written by exceljs (what Excel writes: shared strings, styles, formulas)', () => {
  async function book(): Promise<Buffer> {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Clientes');
    ws.addRow(['Teléfono', 'Nombre', 'Fecha', 'Total', 'Código']);
    ws.addRow([3001234567, 'Ana', new Date(Date.UTC(2025, 5, 30)), 125000.5, '007']);
    ws.addRow([{ formula: 'A2+1', result: 3001234568 }, { formula: 'CONCAT("Lu","z")', result: 'Luz' }, new Date(Date.UTC(2025, 5, 30, 8, 30)), { formula: 'D2*2', result: 250001 }, '=not a formula']);
    ws.addRow([573109876543, { richText: [{ text: 'María ' }, { font: { bold: true }, text: 'José' }] }, null, 0.1 + 0.2, '']);
    ws.getCell('C2').numFmt = 'dd/mm/yyyy';
    ws.getCell('C3').numFmt = 'dd/mm/yyyy hh:mm';
    ws.addRow([{ formula: 'A2' }, 'Sin valor en caché', null, null, null]);
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  it('cached formula values, phones stored as numbers, dates as the sheet shows them, rich text, text that looks like a formula', async () => {
    const { rows, summary } = await xlsx(await book(), { variables: ['nombre', 'fecha', 'total', 'código'], optionalVariables: [] });
    expect(summary).toMatchObject({ format: 'xlsx', sheet: 'Clientes', headers: ['Teléfono', 'Nombre', 'Fecha', 'Total', 'Código'], encoding: null, separator: null });
    expect(rows[0]).toMatchObject({ row: 2, result: 'pass', phone: '+573001234567', variables: { nombre: 'Ana', fecha: '30/06/2025', total: '125000.5', 'código': '007' } });
    expect(rows[1]).toMatchObject({ row: 3, phone: '+573001234568', variables: { nombre: 'Luz', fecha: '30/06/2025 08:30', total: '250001', 'código': '=not a formula' } });
    expect(rows[2]).toMatchObject({ row: 4, result: 'fail', phone: '+573109876543', variables: { nombre: 'María José', fecha: '', total: '0.3' } });
    // A formula without a cached value is empty: nothing is evaluated.
    expect(rows[3]).toMatchObject({ row: 5, result: 'fail', phone: null, problems: [{ code: 'emptyPhone', column: 'Teléfono' }, { code: 'requiredValue', column: 'Fecha' }, { code: 'requiredValue', column: 'Total' }, { code: 'requiredValue', column: 'Código' }] });
  });

  it('keeps what the person sees: money, percentages, a day-first date and time, a phone in a number format; the schedule column still reads', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Clientes');
    ws.addRow(['Celular', 'Saldo', 'Descuento', 'Cita', 'Fecha_envio']);
    ws.addRow([3001234567, 50000, 0.125, new Date(Date.UTC(2030, 11, 5, 14, 30)), new Date(Date.UTC(2030, 11, 5, 9, 15))]);
    ws.getCell('A2').numFmt = '0';
    ws.getCell('B2').numFmt = '"$" #,##0';
    ws.getCell('C2').numFmt = '0.0%';
    ws.getCell('D2').numFmt = 'dd/mm/yyyy h:mm AM/PM';
    ws.getCell('E2').numFmt = 'dd/mm/yyyy hh:mm';
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const { rows } = await xlsx(bytes, { variables: ['saldo', 'descuento', 'cita'], now: new Date(Date.UTC(2026, 0, 1)) });
    expect(rows[0]).toMatchObject({ result: 'pass', phone: '+573001234567', variables: { saldo: '$ 50.000', descuento: '12,5%', cita: '05/12/2030 2:30 p. m.' } });
    // Plain spaces only (a no-break space would switch an SMS to UCS-2); the schedule column is
    // read from the text shown (day first): 09:15 in Bogotá.
    expect(rows[0].variables.cita).not.toMatch(/[\u00a0\u202f]/);
    expect(rows[0].scheduleAt).toBe('2030-12-05T14:15:00.000Z');
  });

  it('a named sheet, and a missing one (99932)', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Instrucciones').addRow(['Llene la hoja Datos']);
    const data = wb.addWorksheet('Datos');
    data.addRow(['celular']);
    data.addRow([3001234567]);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const { rows, summary } = await xlsx(bytes, { sheet: 'Datos' });
    expect(summary.sheet).toBe('Datos');
    expect(brief(rows)).toEqual([[2, 'pass', '+573001234567', '']]);
    expect((await refusal(xlsx(bytes, { sheet: 'Hoja9' }))).message).toContain('Hoja9');
  });

  it('a truncated workbook is refused (99932)', async () => {
    const bytes = await book();
    for (const cut of [bytes.length - 10, Math.floor(bytes.length / 2), 100]) {
      const error = await refusal(xlsx(bytes.subarray(0, cut)));
      expect(error.code).toBe('99932');
      expect(error.message).toMatch(/damaged|incomplete/);
    }
  });
});

describe('XLSX cell kinds (hand-written SpreadsheetML)', () => {
  const styles = '<styleSheet><numFmts count="1"><numFmt numFmtId="164" formatCode="[$-240A]d &quot;de&quot; mmmm &quot;de&quot; yyyy"/><numFmt numFmtId="165" formatCode="0.00&quot; d&quot;"/></numFmts><cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="3"/></cellXfs></styleSheet>';
  const sheet = [
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>ciudad</t></is></c><c r="D1" t="s"><v>4</v></c></row>',
    '<row r="2"><c r="A2"><v>3.001234567E9</v></c><c r="B2" t="s"><v>2</v></c><c r="C2" t="str"><f>UPPER("cali")</f><v>CALI</v></c><c r="D2" s="1"><v>45838</v></c></row>',
    // Sparse: B and D only; A (phone) missing.
    '<row r="4"><c r="B4" t="inlineStr"><is><t xml:space="preserve"> Ana &amp; Luz_x000D_</t></is></c><c r="D4" s="2"><v>45838.5</v></c></row>',
    // No r attributes; booleans, errors and a thousands-format number.
    '<row><c t="n"><v>3109876543</v></c><c t="b"><v>1</v></c><c t="e"><v>#N/A</v></c><c s="3"><v>1234567</v></c></row>',
    '<x:row r="9" xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:c r="A9" t="s"><x:v>3</x:v></x:c><x:c r="B9" t="s"><x:v>5</x:v></x:c><x:c r="C9" t="s"><x:v>6</x:v></x:c><x:c r="D9"><x:v>1</x:v></x:c></x:row>',
  ].join('');
  const shared = ['telefono', 'nombre', '<r><t>Jos</t></r><r><rPr><b/></rPr><t>é</t></r><rPh sb="0" eb="1"><t>ホセ</t></rPh>', '+57 320 111 2233', 'fecha', '=HYPERLINK("http://evil.co","clic")', '<t>Ñoño &lt;b&gt;</t>'];

  it('reads every cell kind as text', async () => {
    const bytes = zip(workbookParts(sheet, { sharedStrings: shared, styles }));
    const { rows } = await xlsx(bytes, { variables: ['nombre'], optionalVariables: ['ciudad', 'fecha'] });
    expect(rows.map((r) => [r.row, r.phone, r.variables])).toEqual([
      // The built-in short date (14) as a Colombian computer shows it, a Spanish long date, and a thousands format (3) with Colombia's separator.
      [2, '+573001234567', { nombre: 'José', ciudad: 'CALI', fecha: '30/06/2025' }],
      [4, null, { nombre: 'Ana & Luz', ciudad: '', fecha: '30 de junio de 2025' }],
      [5, '+573109876543', { nombre: 'TRUE', ciudad: '#N/A', fecha: '1.234.567' }],
      [9, '+573201112233', { nombre: '=HYPERLINK("http://evil.co","clic")', ciudad: 'Ñoño <b>', fecha: '1' }],
    ]);
    // The inline string keeps its inner spaces and the decoded carriage return; the value is trimmed for the message.
    expect(rows[1].cells?.[1]).toBe(' Ana & Luz\r');
  });

  it('the 1904 date system', async () => {
    const bytes = zip(workbookParts('<row r="1"><c r="A1" t="inlineStr"><is><t>telefono</t></is></c><c r="B1" t="inlineStr"><is><t>fecha</t></is></c></row><row r="2"><c r="A2"><v>3001234567</v></c><c r="B2" s="1"><v>44376</v></c></row>', { styles, date1904: true }));
    const { rows } = await xlsx(bytes, { variables: ['fecha'] });
    expect(rows[0].variables).toEqual({ fecha: '30/06/2025' });
  });

  it('a sheet whose XML ends before its data does is refused', async () => {
    const parts = workbookParts('<row r="1"><c r="A1"><v>3001234567</v></c></row>');
    const cut = parts.map((p) => (p.name.endsWith('sheet1.xml') ? { ...p, data: String(p.data).replace('</sheetData></worksheet>', '') } : p));
    expect((await refusal(xlsx(zip(cut)))).message).toContain('ends before its data');
  });

  it('a cell longer than maxCellChars is an error row', async () => {
    const bytes = zip(workbookParts(`<row r="1"><c r="A1" t="inlineStr"><is><t>telefono</t></is></c><c r="B1" t="inlineStr"><is><t>nombre</t></is></c></row><row r="2"><c r="A2"><v>3001234567</v></c><c r="B2" t="inlineStr"><is><t>${'x'.repeat(100_000)}</t></is></c></row><row r="3"><c r="A3"><v>3001234568</v></c><c r="B3" t="inlineStr"><is><t>Ana</t></is></c></row>`));
    const { rows } = await xlsx(bytes, { variables: ['nombre'] });
    expect(brief(rows)).toEqual([[2, 'error', null, 'cellTooLong'], [3, 'pass', '+573001234568', '']]);
  });
});

describe('zip bombs and lying archives (99932 before or while inflating)', () => {
  const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>telefono</t></is></c></row>';
  const withSheet = (sheetPart: Partial<ZipPart>) => zip(workbookParts(header).map((p) => (p.name.endsWith('sheet1.xml') ? { ...p, ...sheetPart } : p)));

  it('an entry compressed far beyond any real sheet (50 MB of one byte) is refused from the directory alone', async () => {
    const raw = Buffer.alloc(50 * 1024 * 1024, 0x20);
    const bytes = withSheet({ deflated: { bytes: deflateRawSync(raw, { level: 9 }), size: raw.length, crc: crc32(raw) } });
    expect(bytes.length).toBeLessThan(200_000);
    const error = await refusal(xlsx(bytes));
    expect(error.message).toMatch(/compressed more than 200:1 \(a zip bomb\)/);
  });

  it('entries declaring more than the inflate cap in total are refused', async () => {
    const bytes = withSheet({ declaredSize: 210 * 1024 * 1024 });
    expect((await refusal(xlsx(bytes))).message).toContain('would inflate to more than 209715200 bytes');
  });

  it('a directory that lies about an entry size: inflating stops at the declared size', async () => {
    // 900 KB of real XML (under the 1 MB ratio floor) declared as 1,000 bytes.
    const rows = Array.from({ length: 20000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>3001234567</v></c></row>`).join('');
    const xml = `<?xml version="1.0"?><worksheet><sheetData>${header}${rows}</sheetData></worksheet>`;
    const bytes = withSheet({ data: xml, declaredSize: 1000 });
    expect((await refusal(xlsx(bytes))).message).toContain('inflates past its declared size');
  });

  it('the real inflated bytes count against the total cap too', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>3001234567</v></c></row>`).join('');
    const bytes = withSheet({ data: `<worksheet><sheetData>${header}${rows}</sheetData></worksheet>` });
    const error = await refusal(xlsx(bytes, { limits: { maxInflatedBytes: 100_000 } }));
    expect(error.message).toMatch(/inflate to more than 100000 bytes/);
  });

  it('encrypted entries and unknown methods are refused', async () => {
    const bytes = withSheet({});
    const central = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const encrypted = Buffer.from(bytes);
    encrypted.writeUInt16LE(1, central + 8);
    expect((await refusal(xlsx(encrypted))).message).toContain('encrypted');
    const bzip = Buffer.from(bytes);
    bzip.writeUInt16LE(12, central + 10);
    expect((await refusal(xlsx(bzip))).message).toContain('method 12');
  });

  it('a ZIP that is not a workbook', async () => {
    const bytes = zip([{ name: 'word/document.xml', data: '<w:document/>' }]);
    expect((await refusal(xlsx(bytes))).message).toContain('not an Excel workbook');
  });
});

describe('XLS (Excel 97-2003, BIFF8) via SheetJS', () => {
  it('reads numbers as digits, dates as the sheet shows them, and the first sheet', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['Celular', 'Nombre', 'Fecha'],
      [3001234567, 'Ñoño', 45838],
      [573109876543, 'Bogotá', null],
      ['=cmd|\' /C calc\'!A0', 'x', 45838.75],
    ]);
    // Serial dates with date formats (a Date would be written in this process's time zone).
    ws.C2.z = 'dd/mm/yyyy';
    ws.C4.z = 'dd/mm/yyyy hh:mm';
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Hoja1');
    const bytes = XLSX.write(wb, { bookType: 'biff8', type: 'buffer' }) as Buffer;
    expect([...bytes.subarray(0, 4)]).toEqual([0xd0, 0xcf, 0x11, 0xe0]);
    const { rows, summary } = await ingest(bytes, { fileName: 'viejo.xls', variables: ['nombre'], optionalVariables: ['fecha'] });
    expect(summary).toMatchObject({ format: 'xls', sheet: 'Hoja1', headers: ['Celular', 'Nombre', 'Fecha'] });
    expect(rows.map((r) => [r.row, r.result, r.phone, r.variables])).toEqual([
      [2, 'pass', '+573001234567', { nombre: 'Ñoño', fecha: '30/06/2025' }],
      [3, 'warn', '+573109876543', { nombre: 'Bogotá', fecha: '' }],
      [4, 'fail', null, { nombre: 'x', fecha: '30/06/2025 18:00' }],
    ]);
  });

  it('a damaged XLS is refused (99932)', async () => {
    const bytes = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600, 7)]);
    expect((await refusal(ingest(bytes, { fileName: 'roto.xls' }))).code).toBe('99932');
  });
});
