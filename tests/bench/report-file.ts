// A report file at size: ROWS messages of one account over 90 days, one report file
// of them all made by the report-file job (the real runner, chunks, storage), on PGlite and on
// PostgreSQL: the total time, rows per second, and how far the process's resident memory rose
// above where it stood before the job (sampled every 50 ms: the file never sits in memory, so
// this should not grow with ROWS). Anchor: the same number of bytes written to the same disk by
// a plain file stream in the same run (the I/O floor). REPORT_FILE_ROWS sets ROWS (default 1,000,000;
// the 10,000,000 takes about ten times as long). REPORT_FILE_ONLY=PostgreSQL (or PGlite)
// measures one database only; REPORT_FILE_FORMAT=xlsx makes an Excel workbook instead of the CSV.
// The JavaScript heap is sampled beside the resident memory, to tell rows held from memory the
// collector or the database driver has not given back.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { sql } from 'kysely';
import { JobRunner } from '../../src/engine/jobs/runner.ts';
import { jobHandlers } from '../../src/server/messaging/jobs.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { onEachDatabase } from './databases.ts';
import type { Record } from './server-lists.ts';

const ROWS = Number(process.env.REPORT_FILE_ROWS ?? 1_000_000);
const FORMAT = process.env.REPORT_FILE_FORMAT === 'xlsx' ? 'xlsx' : 'csv';
const BATCH = 200_000;
const DAYS = 90;

/** Writes `bytes` bytes in 64 KB lines to a new file: the disk's floor for the same output. */
async function plainWrite(bytes: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'colibri-anchor-'));
  const out = createWriteStream(join(dir, 'anchor.csv'));
  const line = Buffer.from(`${'2026-01-01 10:00:00,Cuenta,+573001234567,Entregado,3,Claro,1,1,,\r\n'.repeat(900)}`);
  const start = performance.now();
  for (let written = 0; written < bytes; written += line.length) if (!out.write(line)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  const ms = performance.now() - start;
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

export async function reportFileBench(record: Record, postgresUrl: string) {
  await onEachDatabase(postgresUrl, async (h, target) => {
    if (process.env.REPORT_FILE_ONLY && process.env.REPORT_FILE_ONLY !== target) return;
    const signed = await h.as('manager');
    const companyId = (await h.db.selectFrom('users').select('company_id').where('id', '=', signed.session.idUser).executeTakeFirstOrThrow()).company_id;
    const channel = await h.db.selectFrom('channels').select('id').where('company_id', '=', companyId).where('platform', '=', 'sms').orderBy('id').executeTakeFirstOrThrow();
    const now = new Date();
    for (let from = 0; from < ROWS; from += BATCH) {
      await sql`
        insert into messages (company_id, channel_id, source, purpose, to_number, body, parts, cost, state, status_code, not_before, created_at, updated_at, billed)
        select ${companyId}, ${channel.id}, 'api', 'transactional', '+5730' || lpad((g % 100000000)::text, 8, '0'), 'Hola', 1, 1,
               case when g % 10 = 0 then 'failed' else 'delivered' end, case when g % 10 = 0 then 99 else 3 end,
               ts, ts, ts, true
        from generate_series(${from + 1}::int, ${Math.min(ROWS, from + BATCH)}::int) g,
             lateral (select ${now}::timestamptz - make_interval(secs => (g % (${DAYS}::int * 86400))) as ts) t`.execute(h.db);
    }
    await sql`analyze`.execute(h.db);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(now);
    const first = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(new Date(now.getTime() - (DAYS + 1) * 86_400_000));

    let finished: () => void = () => {};
    const done = new Promise<void>((resolve) => { finished = resolve; });
    const deps = { db: h.db, now: () => new Date(), messaging: { sendWindow: companySendWindow(h.db), wake: () => {} }, storage: h.storage };
    const runner = new JobRunner({ db: h.db, workerId: 'bench', idleMs: 50, handlers: jobHandlers(deps), onStep: (_job, result) => { if (result === 'done') finished(); } });
    global.gc?.();
    const baseline = process.memoryUsage.rss();
    const heapBaseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let heapPeak = heapBaseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 50);
    const start = performance.now();
    const asked = await h.op('reportCenter.generateReport', { token: signed.token, params: { product: 'colibri' }, body: { ReportsTypeId: 1, ClientsIds: [channel.id], DateStart: first, DateEnd: today, format: FORMAT } });
    if (asked.statusCode !== 200) throw new Error(`generateReport answered ${asked.statusCode}: ${asked.body}`);
    runner.start();
    runner.wake();
    await done;
    const ms = performance.now() - start;
    clearInterval(sampler);
    await runner.stop();
    const file = await h.db.selectFrom('report_files').select(['rows', 'bytes', 'state', 'storage_key']).where('id', '=', asked.json().processId).executeTakeFirstOrThrow();
    if (file.state !== 'ready') throw new Error(`the file ended ${file.state}`);
    const rows = Number(file.rows);
    const bytes = Number(file.bytes);
    const anchorMs = await plainWrite(bytes);
    const slug = `${FORMAT === 'xlsx' ? 'xlsx-' : ''}${target.toLowerCase()}`;
    const notes = `${FORMAT}: ${rows} rows (of ${ROWS} inserted), ${(bytes / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(1)} s (${Math.round(rows / (ms / 1000))} rows/s), chunk of 5,000 rows per step; resident memory ${(baseline / 1e6).toFixed(0)} MB before, peak ${(peak / 1e6).toFixed(0)} MB (+${((peak - baseline) / 1e6).toFixed(0)} MB); JavaScript heap ${(heapBaseline / 1e6).toFixed(0)} MB before, peak ${(heapPeak / 1e6).toFixed(0)} MB (+${((heapPeak - heapBaseline) / 1e6).toFixed(0)} MB); the same bytes written by a plain stream in ${(anchorMs / 1000).toFixed(3)} s`;
    record({ name: `report-file-${ROWS}-seconds-${slug}`, value: Number((ms / 1000).toFixed(1)), unit: 's', anchor: `the same ${(bytes / 1e6).toFixed(0)} MB written by a plain file stream (s, same run)`, anchor_value: Number((anchorMs / 1000).toFixed(3)), goal: 'noted: time and peak memory of a big report file', notes });
    record({ name: `report-file-${ROWS}-peak-heap-growth-${slug}`, value: Math.round((heapPeak - heapBaseline) / 1e6), unit: 'MB', anchor: 'JavaScript heap before the job (MB)', anchor_value: Math.round(heapBaseline / 1e6), goal: 'bounded: what the process itself holds of the rows', notes });
    record({ name: `report-file-${ROWS}-peak-rss-growth-${slug}`, value: Math.round((peak - baseline) / 1e6), unit: 'MB', anchor: 'resident memory before the job (MB)', anchor_value: Math.round(baseline / 1e6), goal: 'bounded: does not grow with the rows (the file is streamed in chunks)', notes });
  }, (target) => (target === 'PGlite' ? { pgliteDir: mkdtempSync(join(tmpdir(), 'colibri-report-file-')) } : {}));
}
