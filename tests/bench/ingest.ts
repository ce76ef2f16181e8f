// npm run bench -- ingest: campaign recipients ingest (src/engine/recipients) on 1,000,000 rows
// (phone + 3 variables), each measurement in its own child process so peak RSS is per run:
//   - CSV: our ingest (rows judged, in batches) vs papaparse's chunked streaming parse of the
//     same file (header: false, rows counted) — rows/s and peak RSS;
//   - XLSX (written with exceljs's streaming writer, shared strings as Excel writes them): our
//     streaming reader + ingest vs exceljs's streaming WorkbookReader iterating every row — time.
// Both children load through tsx so the loader's memory is in both figures. Three alternating
// runs each; the median is recorded. The size caps are raised: the file is bigger than 20 MB.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';

type Record = (r: { name: string; value: number; unit: string; anchor: string; anchor_value: number; goal: string; ratio?: number; notes?: string }) => void;

const ROWS = 1_000_000;
// The children run from a temporary folder: packages are imported by their resolved location.
const moduleUrl = (name: string) => JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve(name)).href);
const NAMES = ['Ana', 'Juan', 'María José', 'Ñoño', 'Andrés', 'Luz Marina', 'Carlos', 'Sofía'];
const CITIES = ['Bogotá', 'Medellín', 'Cali', 'Barranquilla', 'Cartagena', 'Bucaramanga'];
const row = (i: number) => [String(3000000000 + ((i * 7919) % 999_999_999)), NAMES[i % NAMES.length], CITIES[i % CITIES.length], `C-${i % 100000}`];

async function writeCsv(path: string) {
  const out = createWriteStream(path);
  let buf = 'telefono,nombre,ciudad,codigo\r\n';
  for (let i = 0; i < ROWS; i++) {
    buf += row(i).join(',') + '\r\n';
    if (buf.length > 1 << 20) { if (!out.write(buf)) await once(out, 'drain'); buf = ''; }
  }
  out.end(buf);
  await once(out, 'finish');
}

async function writeXlsx(path: string) {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: false });
  const sheet = book.addWorksheet('recipients');
  sheet.addRow(['telefono', 'nombre', 'ciudad', 'codigo']).commit();
  for (let i = 0; i < ROWS; i++) {
    const [phone, ...rest] = row(i);
    sheet.addRow([Number(phone), ...rest]).commit();
  }
  await book.commit();
}

const ours = (file: string, name: string) => `
  import { createReadStream, readFileSync } from 'node:fs';
  import { ingestRecipients } from ${JSON.stringify(pathToFileURL(resolve('src/engine/recipients/index.ts')).href)};
  const t0 = performance.now();
  const ingest = ingestRecipients(createReadStream(${JSON.stringify(file)}, { highWaterMark: 65536 }), {
    fileName: ${JSON.stringify(name)}, variables: ['nombre', 'ciudad', 'codigo'],
    limits: { maxBytes: 2 ** 31, maxInflatedBytes: 2 ** 31 },
  });
  let rows = 0;
  for await (const batch of ingest.batches()) rows += batch.length;
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ rows, ms, rssKb: peakRssKb(), pass: ingest.summary.pass }));`;

const papa = (file: string) => `
  import { createReadStream, readFileSync } from 'node:fs';
  import Papa from ${moduleUrl('papaparse')};
  const t0 = performance.now();
  let rows = 0;
  await new Promise((done, fail) => Papa.parse(createReadStream(${JSON.stringify(file)}, { highWaterMark: 65536 }), {
    header: false, skipEmptyLines: true, chunk: (r) => { rows += r.data.length; }, complete: done, error: fail,
  }));
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ rows: rows - 1, ms, rssKb: peakRssKb() }));`;

const exceljsRead = (file: string) => `
  import { readFileSync } from 'node:fs';
  import ExcelJS from ${moduleUrl('exceljs')};
  const t0 = performance.now();
  let rows = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(${JSON.stringify(file)}, { sharedStrings: 'cache', worksheets: 'emit', styles: 'ignore', hyperlinks: 'ignore' });
  for await (const sheet of reader) { for await (const r of sheet) { if (r.number > 1) rows++; } break; }
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ rows, ms, rssKb: peakRssKb() }));`;

interface Run { rows: number; ms: number; rssKb: number }

// Peak RSS of the child itself: VmHWM (getrusage's maxRSS survives exec on Linux and would report
// the parent's peak when the parent is bigger).
const PEAK_RSS = `const peakRssKb = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);`;

function child(dir: string, name: string, code: string): Run {
  const file = join(dir, `${name}.mts`);
  writeFileSync(file, code.replace(/\n {2}const t0/, `\n  ${PEAK_RSS}\n  const t0`));
  const out = execFileSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', cwd: resolve('.'), maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!) as Run;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function ingestBench(record: Record) {
  const dir = mkdtempSync(join(tmpdir(), 'ingest-bench-'));
  try {
    const csv = join(dir, 'recipients.csv');
    const xlsx = join(dir, 'recipients.xlsx');
    await writeCsv(csv);
    await writeXlsx(xlsx);
    const mb = (p: string) => (statSync(p).size / 1048576).toFixed(1);

    const csvOurs: Run[] = [];
    const csvPapa: Run[] = [];
    for (let k = 0; k < 3; k++) {
      csvOurs.push(child(dir, 'ours-csv', ours(csv, 'recipients.csv')));
      csvPapa.push(child(dir, 'papa-csv', papa(csv)));
    }
    for (const r of [...csvOurs, ...csvPapa]) if (r.rows !== ROWS) throw new Error(`expected ${ROWS} rows, read ${r.rows}`);
    const oursRate = median(csvOurs.map((r) => r.rows / (r.ms / 1000)));
    const papaRate = median(csvPapa.map((r) => r.rows / (r.ms / 1000)));
    const oursRss = median(csvOurs.map((r) => r.rssKb / 1024));
    const papaRss = median(csvPapa.map((r) => r.rssKb / 1024));
    const note = `1,000,000 rows, ${mb(csv)} MB CSV; median of 3 child processes each`;
    record({ name: 'ingest-csv-rows-per-s', value: Math.round(oursRate), unit: 'rows/s', anchor: 'papaparse 5.7 chunked streaming parse of the same file (rows/s)', anchor_value: Math.round(papaRate), goal: 'ratio >= 0.5 (we also decode, judge phones and variables, find duplicates)', notes: note });
    record({ name: 'ingest-csv-peak-rss', value: Math.round(oursRss), unit: 'MB', anchor: 'papaparse 5.7 chunked streaming peak RSS (MB)', anchor_value: Math.round(papaRss), goal: 'ratio <= 2.5', notes: note });

    const xlsxOurs: Run[] = [];
    const xlsxExceljs: Run[] = [];
    for (let k = 0; k < 3; k++) {
      xlsxOurs.push(child(dir, 'ours-xlsx', ours(xlsx, 'recipients.xlsx')));
      xlsxExceljs.push(child(dir, 'exceljs-xlsx', exceljsRead(xlsx)));
    }
    for (const r of [...xlsxOurs, ...xlsxExceljs]) if (r.rows !== ROWS) throw new Error(`expected ${ROWS} rows, read ${r.rows}`);
    const oursS = median(xlsxOurs.map((r) => r.ms / 1000));
    const exceljsS = median(xlsxExceljs.map((r) => r.ms / 1000));
    record({ name: 'ingest-xlsx-time', value: Number(oursS.toFixed(2)), unit: 's', anchor: 'exceljs 4.4 streaming WorkbookReader over the same file (s)', anchor_value: Number(exceljsS.toFixed(2)), goal: 'ratio <= 1.3', notes: `1,000,000 rows, ${mb(xlsx)} MB XLSX with shared strings; peak RSS ours ${Math.round(median(xlsxOurs.map((r) => r.rssKb / 1024)))} MB, exceljs ${Math.round(median(xlsxExceljs.map((r) => r.rssKb / 1024)))} MB; median of 3` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
