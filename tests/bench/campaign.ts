// A personalised campaign from the launch click to the last receipt (npm run bench -- campaign):
// 50,000 recipients uploaded as a CSV through the API (two variables; a campaign short link that
// the launch turns into one code per recipient; one name in three written with a character
// outside GSM-7, so those messages go as UCS-2 in two parts), launched through the API, its
// chunks written by the job runner, claimed by the dispatcher, submitted over SMPP to the sandbox
// SMSC and receipted, on PGlite and on PostgreSQL. Recorded beside each other: prepared (the
// launch click → the launch job done, every message written) and delivered (the launch click →
// every message delivered). The anchor is the time the bare `smpp` package client→server takes
// to carry as many messages with a receipt each, measured in the same run.
// Everything runs in one process, as the anchor does. BENCH_CAMPAIGN_RECIPIENTS overrides the size.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { JobRunner } from '../../src/engine/jobs/runner.ts';
import { jobHandlers } from '../../src/server/messaging/jobs.ts';
import { startMessaging } from '../../src/server/messaging/runtime.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { defaultSecretBox } from '../../src/server/security/secrets.ts';
import { multipart, type Harness } from '../server/harness.ts';
import { onEachDatabase } from './databases.ts';
import { rawSmppThroughput, type Record } from './smpp.ts';

const RECIPIENTS = Number(process.env.BENCH_CAMPAIGN_RECIPIENTS ?? 50_000);
const SIZE = `${Math.round(RECIPIENTS / 1000)}k`;
/** GSM-7 names, and names with í or ó (outside GSM-7: their whole message goes as UCS-2). */
const NAMES = ['Ana', 'Luis Pérez', 'María', 'Carlos', 'Sofía Gómez', 'Juan'];

function recipientsCsv(): Buffer {
  const lines = ['telefono;nombre;saldo'];
  // Distinct mobiles, none ending in 0000 (the sandbox SMSC's failing suffix).
  for (let i = 0; i < RECIPIENTS; i++) lines.push(`31${String(i).padStart(7, '0')}7;${NAMES[i % NAMES.length]};${(i * 7919) % 1_000_000}`);
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

async function campaignRun(h: Harness): Promise<{ preparedMs: number; deliveredMs: number; answeredMs: number; messages: number; parts: number; ucs2: number }> {
  const signed = await h.as('manager');
  const token = signed.token;
  const companyId = (await h.db.selectFrom('users').select('company_id').where('id', '=', signed.session.idUser).executeTakeFirstOrThrow()).company_id;
  await sql`update company_credits set balance = balance + ${RECIPIENTS * 10} where company_id = ${companyId}`.execute(h.db);
  const channels = (await h.op('channels.list', { token, query: { platform: 'sms', enabled: 'true' } })).json();
  const link = (await h.op('shortener.campaignLink', { token, body: { url: 'https://tienda.example.com/pago' } })).json();
  const content = `Hola {{nombre}}, tu saldo es {{saldo}}. Paga en ${link.shortUrl} antes del viernes.`;
  const campaign = (await h.op('campaigns.create', { token, body: { name: 'Saldo personalizado', kind: 'open', purpose: 'transactional', channelId: channels.items[0].id, content } })).json();
  const upload = await h.op('campaigns.uploadRecipients', { token, params: { id: campaign.id }, ...multipart('file', 'saldos.csv', 'text/csv', recipientsCsv()) });
  if (upload.statusCode !== 200) throw new Error(`upload answered ${upload.statusCode}: ${upload.body}`);
  await sql`analyze`.execute(h.db);

  const runtime = await startMessaging({
    db: h.db, secrets: defaultSecretBox(), sandbox: true, callbacks: false,
    smsc: { record: false },
    dispatcher: { idleMs: 50 },
    // The anchor's window; no TPS limit (the benchmark measures the product, not an operator's contract).
    smpp: { tps: null, window: 100 },
  });
  let prepared: () => void = () => {};
  const preparedAt = new Promise<number>((resolve) => { prepared = () => resolve(performance.now()); });
  const runner = new JobRunner({
    db: h.db, workerId: 'bench', idleMs: 50,
    handlers: jobHandlers({ db: h.db, now: () => h.clock.now, messaging: { sendWindow: companySendWindow(h.db), wake: () => runtime.dispatcher.wake() }, storage: h.storage }),
    onStep: (job, result) => { if (job.kind === 'launch' && result === 'done') prepared(); },
  });
  try {
    runner.start();
    const start = performance.now();
    const launched = await h.op('campaigns.launch', { token, params: { id: campaign.id } });
    const answeredMs = performance.now() - start;
    if (launched.statusCode !== 200) throw new Error(`launch answered ${launched.statusCode}: ${launched.body}`);
    const deployment = launched.json() as { id: number; state: string };
    // A launch small enough to be written in the request has no job.
    if (deployment.state !== 'preparing') prepared();
    runtime.dispatcher.wake();
    runner.wake();
    const preparedMs = (await preparedAt) - start;
    const deadline = Date.now() + 30 * 60_000;
    for (;;) {
      const open = await sql<{ n: string | number }>`select count(*) as n from messages where deployment_id = ${deployment.id} and state <> 'delivered'`.execute(h.db);
      if (Number(open.rows[0].n) === 0) break;
      if (Date.now() > deadline) throw new Error(`${open.rows[0].n} messages not delivered after 30 minutes`);
      await new Promise<void>((resolve) => setTimeout(resolve, 20));
    }
    const deliveredMs = performance.now() - start;
    const counts = await sql<{ messages: string | number; parts: string | number; ucs2: string | number }>`
      select count(*) as messages, coalesce(sum(parts), 0) as parts, count(*) filter (where encoding = 'UCS-2') as ucs2
      from messages where deployment_id = ${deployment.id}`.execute(h.db);
    const c = counts.rows[0];
    return { preparedMs, deliveredMs, answeredMs, messages: Number(c.messages), parts: Number(c.parts), ucs2: Number(c.ucs2) };
  } finally {
    await runner.stop();
    await runtime.close();
  }
}

export async function campaignBench(record: Record, postgresUrl: string) {
  const raw = await rawSmppThroughput(RECIPIENTS, 100);
  await onEachDatabase(postgresUrl, async (h, target) => {
    const run = await campaignRun(h);
    const slug = target.toLowerCase();
    const deliveredGoal = target === 'PostgreSQL' ? 30 : 60;
    const notes = `${RECIPIENTS} recipients (CSV through the API), ${run.messages} messages, ${run.parts} parts (${run.ucs2} UCS-2), one short-link code each; launch answered in ${run.answeredMs.toFixed(0)} ms, prepared in ${(run.preparedMs / 1000).toFixed(1)} s, delivered in ${(run.deliveredMs / 1000).toFixed(1)} s; ${target === 'PGlite' ? 'PGlite on disk, as npm start keeps it' : 'PostgreSQL'}; job runner, dispatcher (window 100, no TPS limit), receipt sink and sandbox SMSC in one process`;
    const anchor = `raw smpp client→server with a receipt per message, window 100: seconds for ${RECIPIENTS} messages, same run`;
    const anchorSeconds = Number((RECIPIENTS / raw).toFixed(2));
    record({ name: `campaign-${SIZE}-prepared-${slug}`, value: Number((run.preparedMs / 1000).toFixed(1)), unit: 's from the launch click to every message written', anchor, anchor_value: anchorSeconds, goal: 'value <= 10', notes });
    record({ name: `campaign-${SIZE}-launch-to-delivered-${slug}`, value: Number((run.deliveredMs / 1000).toFixed(1)), unit: 's from the launch click to the last message delivered', anchor, anchor_value: anchorSeconds, goal: `value <= ${deliveredGoal}`, notes });
  }, (target) => (target === 'PGlite' ? { pgliteDir: mkdtempSync(join(tmpdir(), 'colibri-campaign-')) } : {}));
}
