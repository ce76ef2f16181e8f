// Rows of one sheet of an XLSX, streamed: the compressed file is held (at most
// uploads.campaignFileBytes, the ZIP directory is at its end), its parts are inflated as streams
// through the zip guard, and the sheet's XML is scanned chunk by chunk, so the inflated sheet is
// never in memory. Shared strings are (they are referenced by index; bounded by the inflate cap).
// Formula cells give their cached value (nothing is evaluated); numbers keep all digits; cells
// with a date format come out as ISO dates.
import { invalidFile } from './errors.ts';
import { displayText, formatCodeOf } from './cell-format.ts';
import { attr, XmlScanner } from './xml-scan.ts';
import { entryText, inflateEntry, InflateBudget, readZipDirectory, type ZipEntry, type ZipLimits } from './zip-guard.ts';

export interface SheetRow { row: number; cells: string[] }

/** Columns past this (XFD is 16384) are not read; a row using them is reported by the caller. */
const MAX_COLUMN = 1024;

interface Workbook { sheetName: string; sheetPath: string; sharedStringsPath: string | null; stylesPath: string | null; date1904: boolean }

function resolvePart(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.') parts.push(p);
  }
  return parts.join('/');
}

function relationships(xml: string, base: string): { id: string; type: string; target: string }[] {
  const out: { id: string; type: string; target: string }[] = [];
  for (const m of xml.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const tag = m[0];
    const id = attr(tag, 0, tag.length, 'Id');
    const type = attr(tag, 0, tag.length, 'Type') ?? '';
    const target = attr(tag, 0, tag.length, 'Target');
    if (id && target && attr(tag, 0, tag.length, 'TargetMode') !== 'External') out.push({ id, type, target: resolvePart(base, target) });
  }
  return out;
}

async function findWorkbook(buf: Uint8Array, entries: Map<string, ZipEntry>, budget: InflateBudget, sheet: string | undefined): Promise<Workbook> {
  const part = (name: string) => entries.get(name);
  const rootRels = part('_rels/.rels');
  let workbookPath = 'xl/workbook.xml';
  if (rootRels) {
    const office = relationships(await entryText(buf, rootRels, budget), '').find((r) => r.type.endsWith('/officeDocument'));
    if (office) workbookPath = office.target;
  }
  const workbookEntry = part(workbookPath);
  if (!workbookEntry) throw invalidFile('the file is a ZIP but not an Excel workbook');
  const workbookXml = await entryText(buf, workbookEntry, budget);
  const relsPath = workbookPath.replace(/[^/]*$/, (f) => `_rels/${f}.rels`);
  const relsEntry = part(relsPath);
  const rels = relsEntry ? relationships(await entryText(buf, relsEntry, budget), workbookPath) : [];
  const sheets = [...workbookXml.matchAll(/<(?:\w+:)?sheet\b[^>]*>/g)].map((m) => ({
    name: attr(m[0], 0, m[0].length, 'name') ?? '',
    rid: attr(m[0], 0, m[0].length, 'r:id') ?? /\s[\w]+:id=["']([^"']*)/.exec(m[0])?.[1] ?? '',
  }));
  const chosen = sheet === undefined ? sheets[0] : sheets.find((s) => s.name === sheet);
  if (!chosen) throw invalidFile(sheet === undefined ? 'the workbook has no sheets' : `the workbook has no sheet called ${JSON.stringify(sheet)}`);
  const target = rels.find((r) => r.id === chosen.rid)?.target;
  const sheetPath = target && part(target) ? target : sheets.indexOf(chosen) === 0 && part('xl/worksheets/sheet1.xml') ? 'xl/worksheets/sheet1.xml' : null;
  if (!sheetPath) throw invalidFile(`the sheet ${JSON.stringify(chosen.name)} is missing from the workbook`);
  const byType = (suffix: string, fallback: string) => {
    const found = rels.find((r) => r.type.endsWith(suffix))?.target ?? fallback;
    return part(found) ? found : null;
  };
  return {
    sheetName: chosen.name,
    sheetPath,
    sharedStringsPath: byType('/sharedStrings', 'xl/sharedStrings.xml'),
    stylesPath: byType('/styles', 'xl/styles.xml'),
    date1904: /<(?:\w+:)?workbookPr\b[^>]*\bdate1904=["'](1|true)["']/.test(workbookXml),
  };
}

async function* textChunks(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of bytes) yield decoder.decode(chunk, { stream: true });
  yield decoder.decode();
}

async function readSharedStrings(buf: Uint8Array, entry: ZipEntry, budget: InflateBudget, maxCellChars: number): Promise<string[]> {
  const strings: string[] = [];
  let current = '';
  let phonetic = 0;
  const scanner: XmlScanner = new XmlScanner({
    open(name, _s, _lt, _gt, selfClosing) {
      if (name === 'si') { current = ''; if (selfClosing) strings.push(''); }
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && !phonetic && !selfClosing) { scanner.capture = true; scanner.text = ''; }
    },
    close(name) {
      if (name === 't' && scanner.capture) {
        scanner.capture = false;
        if (current.length <= maxCellChars) current += scanner.takeText();
      } else if (name === 'rPh') phonetic--;
      else if (name === 'si') strings.push(current.length > maxCellChars ? current.slice(0, maxCellChars + 1) : current);
    },
  }, maxCellChars);
  for await (const text of textChunks(inflateEntry(buf, entry, budget))) scanner.push(text);
  return strings;
}

/** Each cell style's number format code (cellXfs order), null for General and text. */
async function readStyleFormats(buf: Uint8Array, entry: ZipEntry, budget: InflateBudget): Promise<(string | null)[]> {
  const xml = await entryText(buf, entry, budget);
  const formats = new Map<number, string>();
  for (const m of xml.matchAll(/<(?:\w+:)?numFmt\b[^>]*>/g)) {
    const id = Number(attr(m[0], 0, m[0].length, 'numFmtId'));
    const code = attr(m[0], 0, m[0].length, 'formatCode');
    if (Number.isFinite(id) && code !== null) formats.set(id, code);
  }
  const cellXfs = /<(?:\w+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:\w+:)?cellXfs>/.exec(xml)?.[1] ?? '';
  return [...cellXfs.matchAll(/<(?:\w+:)?xf\b[^>]*>/g)].map((m) => {
    const id = Number(attr(m[0], 0, m[0].length, 'numFmtId') ?? 0);
    return formatCodeOf(id, formats.get(id));
  });
}

function columnIndex(ref: string): number {
  let col = 0;
  for (let k = 0; k < ref.length; k++) {
    const c = ref.charCodeAt(k);
    if (c >= 65 && c <= 90) col = col * 26 + (c - 64);
    else if (c >= 97 && c <= 122) col = col * 26 + (c - 96);
    else break;
  }
  return col - 1;
}

export interface XlsxLimits extends ZipLimits { maxCellChars: number }

export interface XlsxRows { sheet: string; rows: AsyncGenerator<SheetRow[]> }

/** Opens the workbook (directory checks, sheet lookup, shared strings, styles); rows come in batches. */
export async function openXlsx(buf: Uint8Array, limits: XlsxLimits, sheet?: string): Promise<XlsxRows> {
  const entries = readZipDirectory(buf, limits);
  const budget = new InflateBudget(limits.maxInflatedBytes);
  const book = await findWorkbook(buf, entries, budget, sheet);
  const shared = book.sharedStringsPath ? await readSharedStrings(buf, entries.get(book.sharedStringsPath)!, budget, limits.maxCellChars) : [];
  const styleFormats = book.stylesPath ? await readStyleFormats(buf, entries.get(book.stylesPath)!, budget) : [];
  return { sheet: book.sheetName, rows: sheetRows(buf, entries.get(book.sheetPath)!, budget, shared, styleFormats, book.date1904, limits.maxCellChars) };
}

async function* sheetRows(buf: Uint8Array, entry: ZipEntry, budget: InflateBudget, shared: string[], styleFormats: (string | null)[], date1904: boolean, maxCellChars: number): AsyncGenerator<SheetRow[]> {
  let batch: SheetRow[] = [];
  let rowNumber = 0;
  let cells: string[] = [];
  let col = -1;
  let type: string | null = null;
  let style = 0;
  let value = '';
  let inline = '';
  let inInline = false;
  let phonetic = 0;
  let done = false;
  const finishCell = () => {
    let text: string;
    switch (type) {
      case 's': text = shared[Number(value)] ?? ''; break;
      case 'inlineStr': text = inline; break;
      case 'b': text = value === '1' ? 'TRUE' : value === '0' ? 'FALSE' : value; break;
      case 'str': case 'e': case 'd': text = value; break;
      default: {
        // A number as the sheet shows it: its style's format, or its digits in General.
        text = value === '' ? '' : displayText(value, styleFormats[style] ?? null, date1904);
      }
    }
    if (col < MAX_COLUMN) {
      while (cells.length < col) cells.push('');
      cells[col] = text.length > maxCellChars ? text.slice(0, maxCellChars + 1) : text;
    }
  };
  const scanner: XmlScanner = new XmlScanner({
    open(name, s, lt, gt, selfClosing) {
      switch (name) {
        case 'row': {
          const r = attr(s, lt, gt, 'r');
          rowNumber = r ? Number(r) : rowNumber + 1;
          cells = [];
          col = -1;
          if (selfClosing) batch.push({ row: rowNumber, cells });
          break;
        }
        case 'c': {
          const ref = attr(s, lt, gt, 'r');
          col = ref ? columnIndex(ref) : col + 1;
          type = attr(s, lt, gt, 't');
          const st = attr(s, lt, gt, 's');
          style = st ? Number(st) : 0;
          value = '';
          inline = '';
          if (selfClosing) finishCell();
          break;
        }
        case 'v': if (!selfClosing) { scanner.capture = true; scanner.text = ''; } break;
        case 'is': inInline = !selfClosing; break;
        case 'rPh': if (!selfClosing) phonetic++; break;
        case 't': if (inInline && !phonetic && !selfClosing) { scanner.capture = true; scanner.text = ''; } break;
      }
    },
    close(name) {
      switch (name) {
        case 'v': if (scanner.capture) { scanner.capture = false; value = scanner.takeText(); } break;
        case 't': if (scanner.capture) { scanner.capture = false; if (inline.length <= maxCellChars) inline += scanner.takeText(); } break;
        case 'rPh': phonetic--; break;
        case 'is': inInline = false; break;
        case 'c': finishCell(); break;
        case 'row': batch.push({ row: rowNumber, cells }); break;
        case 'sheetData': done = true; break;
      }
    },
  }, maxCellChars);
  const chunks = textChunks(inflateEntry(buf, entry, budget));
  try {
    for await (const text of chunks) {
      scanner.push(text);
      if (batch.length) { yield batch; batch = []; }
      if (done) break;
    }
  } finally {
    await chunks.return(undefined);
  }
  if (!done) throw invalidFile('the sheet ends before its data does: the workbook is damaged or incomplete');
}
