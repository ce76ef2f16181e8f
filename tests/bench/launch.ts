// A big launch never stalls the server: a campaign of 1,000,000 recipients is launched
// while GET /health and a list call (team.list, a page of 20) are sampled every 100 ms, on PGlite and on
// PostgreSQL; p50/p99 of both during the launch, the enqueue rate and the total time. The anchor
// is GET /health p99 on the same server while idle, measured in the same run.
// PGlite runs on disk in a fresh folder, as `npm start` keeps it (in memory its files grow by copying).
// `npm run bench launch` (BENCH_LAUNCH_RECIPIENTS overrides the size; LAUNCH_CHUNK_SIZE, LAUNCH_JOB_CHUNK_SIZE and LAUNCH_STEP_BUDGET_MS the chunks).
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { JobRunner } from '../../src/engine/jobs/runner.ts';
import { jobHandlers } from '../../src/server/messaging/jobs.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { launchChunkSize, launchStepSizing } from '../../src/engine/campaigns/index.ts';
import type { Harness } from '../server/harness.ts';
import { onEachDatabase } from './databases.ts';
import type { Record } from './server-lists.ts';

const RECIPIENTS = Number(process.env.BENCH_LAUNCH_RECIPIENTS ?? 1_000_000);
const EVERY_MS = 100;
/** In the results' names: 1m, or the size run (BENCH_LAUNCH_RECIPIENTS). */
const SIZE = RECIPIENTS % 1_000_000 === 0 ? `${RECIPIENTS / 1_000_000}m` : `${Math.round(RECIPIENTS / 1000)}k`;

/** How the job's steps are sized, in the notes: fixed rows, or a time budget. */
function stepWords(): string {
  const s = launchStepSizing();
  return s.kind === 'fixed' ? String(s.rows) : `as many rows as fit ${s.budgetMs} ms (${s.min}–${s.max})`;
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(1));
}

/** A campaign whose recipients file holds RECIPIENTS sendable rows, written set-based (the upload itself is benchmarked by ingest). */
async function bigCampaign(h: Harness, token: string, companyId: number, userId: number): Promise<number> {
  const channels = (await h.op('channels.list', { token, query: { platform: 'sms', enabled: 'true' } })).json();
  const campaign = (await h.op('campaigns.create', { token, body: { kind: 'open', purpose: 'transactional', channelId: channels.items[0].id, name: 'Lanzamiento de un millón', content: 'Hola {{nombre}}, tu pedido está listo' } })).json();
  const file = await h.db.insertInto('recipient_files').values({ company_id: companyId, campaign_id: campaign.id, file_name: 'millon.csv', bytes: RECIPIENTS * 30, state: 'done', headers: JSON.stringify(['telefono', 'nombre']), created_by: userId, created_at: new Date() }).returning('id').executeTakeFirstOrThrow();
  await sql`insert into recipient_rows (file_id, row_no, phone, variables, result, send)
            select ${file.id}, g + 1, '+5731' || lpad(g::text, 8, '0'), jsonb_build_object('nombre', 'Cliente ' || g), 'pass', true
            from generate_series(1, ${RECIPIENTS}) g`.execute(h.db);
  await sql`update campaigns set recipients_file_id = ${file.id} where id = ${campaign.id}`.execute(h.db);
  await sql`update company_credits set balance = balance + ${RECIPIENTS * 2} where company_id = ${companyId}`.execute(h.db);
  await sql`analyze`.execute(h.db);
  return campaign.id;
}

export async function launchBench(record: Record, postgresUrl: string) {
  await onEachDatabase(postgresUrl, async (h, target) => {
    const signed = await h.as('manager');
    const token = signed.token;
    const user = await h.db.selectFrom('users').select(['id', 'company_id']).where('id', '=', signed.session.idUser).executeTakeFirstOrThrow();
    const campaignId = await bigCampaign(h, token, user.company_id, user.id);
    for (let i = 0; i < 30; i++) await h.op('system.health');
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) {
      const start = performance.now();
      await h.op('system.health');
      idle.push(performance.now() - start);
      await new Promise((r) => setTimeout(r, 5));
    }
    const anchor = pct(idle, 0.99);

    let finished: () => void = () => {};
    const done = new Promise<void>((resolve) => { finished = resolve; });
    const runner = new JobRunner({
      db: h.db, workerId: 'bench', idleMs: 50,
      handlers: jobHandlers({ db: h.db, now: () => new Date(), messaging: { sendWindow: companySendWindow(h.db), wake: () => {} }, storage: h.storage }),
      onStep: (_job, result) => { if (result === 'done') finished(); },
    });
    const health: number[] = [];
    const list: number[] = [];
    const loadBefore = loadavg()[0];
    // Each sample's latency counts from the instant it was due (every 100 ms from the start), so
    // time the event loop was held before the request could even be issued is in it.
    let k = 0;
    let sampling = true;
    let sampler: NodeJS.Timeout | undefined;
    const sample = () => {
      const due = start + k * EVERY_MS;
      void h.op('system.health').then(() => health.push(performance.now() - due));
      void h.op('team.list', { token, query: { page: 1, pageSize: 20, state: 'active', sort: 'name' } }).then(() => list.push(performance.now() - due));
      k++;
      while (start + k * EVERY_MS < performance.now() - EVERY_MS) { health.push(performance.now() - (start + k * EVERY_MS)); list.push(performance.now() - (start + k * EVERY_MS)); k++; }
      if (sampling) sampler = setTimeout(sample, Math.max(0, start + k * EVERY_MS - performance.now()));
    };
    // How long the server's one thread was held (PGlite runs in it): beside the samples' latency.
    const eld = monitorEventLoopDelay({ resolution: 10 });
    eld.enable();
    const start = performance.now();
    sampler = setTimeout(sample, 0);
    const launched = await h.op('campaigns.launch', { token, params: { id: campaignId } });
    const answeredMs = performance.now() - start;
    if (launched.statusCode !== 200) throw new Error(`launch answered ${launched.statusCode}: ${launched.body}`);
    runner.start();
    runner.wake();
    await done;
    const totalMs = performance.now() - start;
    sampling = false;
    if (sampler) clearTimeout(sampler);
    await runner.stop();
    eld.disable();
    const loopDelay = `event-loop delay p99 ${(eld.percentile(99) / 1e6).toFixed(0)} ms, max ${(eld.max / 1e6).toFixed(0)} ms`;
    const written = await sql<{ n: string | number }>`select count(*) as n from messages where deployment_id = ${launched.json().id}`.execute(h.db);
    const n = Number(written.rows[0].n);
    const slug = target.toLowerCase();
    const notes = `${RECIPIENTS} recipients, chunk ${launchChunkSize()} in the request and ${stepWords()} per job step, ${n} messages written in ${(totalMs / 1000).toFixed(1)} s (${Math.round(n / (totalMs / 1000))} rows/s); launch answered in ${answeredMs.toFixed(0)} ms; ${health.length} /health and ${list.length} team.list (page 1 of 20) samples every ${EVERY_MS} ms through Fastify inject; /health p50 ${pct(health, 0.5)} ms, p99 ${pct(health, 0.99)} ms, max ${pct(health, 1)} ms; list p50 ${pct(list, 0.5)} ms, p99 ${pct(list, 0.99)} ms; ${loopDelay}; ${target === 'PGlite' ? 'PGlite on disk, as npm start keeps it' : 'PostgreSQL'}; load average ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)} on a 2-core machine shared with other work`;
    record({ name: `launch-${SIZE}-health-p99-${slug}`, value: pct(health, 0.99), unit: 'ms p99', anchor: `GET /health p99 on ${target}, idle (same server, same run)`, anchor_value: anchor, goal: 'p99 < 100 ms during the launch', notes });
    record({ name: `launch-${SIZE}-list-p99-${slug}`, value: pct(list, 0.99), unit: 'ms p99', anchor: `GET /health p99 on ${target}, idle (same server, same run)`, anchor_value: anchor, goal: 'p99 < 100 ms during the launch', notes });
    record({ name: `launch-${SIZE}-rows-per-s-${slug}`, value: Math.round(n / (totalMs / 1000)), unit: 'messages/s', anchor: `GET /health p99 on ${target}, idle (ms)`, anchor_value: anchor, goal: 'noted (the launch completes; total time in notes)', notes });
  }, (target) => (target === 'PGlite' ? { pgliteDir: mkdtempSync(join(tmpdir(), 'colibri-launch-')) } : {}));
}
