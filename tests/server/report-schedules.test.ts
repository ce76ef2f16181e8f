// Scheduled reports (/Reports/Scheduled) on the database (PGlite, or PostgreSQL with DATABASE_URL):
// a schedule is checked (accounts, the day its frequency needs) and gets its next run; when the
// clock passes it, one report file covering the time since the run before is made — once, even
// with two processes ticking at the same moment — written by the real job runner, listed with the
// report files, and e-mailed once (the real sandbox outbox) with a link that downloads it without
// a session; runs missed while the server was down become one file covering their time.
import { beforeAll, describe, expect, it } from 'vitest';
import { calendarDateOf, daysInMonth, formatYmd, instantOf, wallTimeOf } from '../../src/core/bogota-time.ts';
import { JobRunner } from '../../src/engine/jobs/runner.ts';
import { databaseOutboxStore } from '../../src/server/composition.ts';
import { jobHandlers } from '../../src/server/messaging/jobs.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { reportFileStep } from '../../src/server/modules/reportCenter/report-files.ts';
import { mailScheduledFiles, runDueReportSchedules } from '../../src/server/modules/reportCenter/report-schedules.ts';
import { injectedScreenRunner } from '../../src/server/modules/reportCenter/report-screen-runner.ts';
import { writeScreenFiles } from '../../src/server/modules/reportCenter/report-screens.ts';
import { defaultSecretBox } from '../../src/server/security/secrets.ts';
import { sandboxMessageProvider } from '../../src/sandbox/outbox.ts';
import { fileHarness } from './file-harness.ts';
import { counts, otherCompany } from './messaging-fixtures.ts';
import { insertMessages, newChannel } from './report-fixtures.ts';

const h = fileHarness();
let token: string;
let companyId: number;
let account: number;
const product = { product: 'colibri' };
const EMAIL = 'jefe@programada.co';
/** A fresh session: the tests move the clock past a session's life. */
const signIn = async () => { token = (await h.signin(EMAIL)).token; };

const create = (body: Record<string, unknown>, as = token) => h.op('reportCenter.createSchedule', { token: as, params: product, body });
const tick = () => runDueReportSchedules({ db: h.db, now: () => h.clock.now });
const mail = () => mailScheduledFiles({ db: h.db, now: () => h.clock.now, secrets: defaultSecretBox(), messages: sandboxMessageProvider(databaseOutboxStore(h.db), () => h.clock.now) }, 'https://sms.example.co');

async function drain() {
  const deps = { db: h.db, now: () => h.clock.now, messaging: { sendWindow: companySendWindow(h.db), wake: () => {} }, storage: h.storage };
  await new JobRunner({ db: h.db, handlers: { ...jobHandlers(deps), reportFile: reportFileStep(deps) }, workerId: 'report-schedules-test', now: () => h.clock.now }).drain();
}

beforeAll(async () => {
  ({ companyId } = await h.addCompany('Programada S.A.S.', [{ email: EMAIL, roles: ['superadmin', 'develop'] }]));
  await h.db.insertInto('company_channel_types').values({ company_id: companyId, platform: 'sms' }).execute();
  await signIn();
  account = await newChannel(h, companyId, 'Programada', 'sms');
}, 180_000);

describe('a scheduled report', () => {
  it('is checked: the day its frequency needs, the company\'s accounts; nothing is saved on refusal', async () => {
    const before = await counts(h, ['report_schedules']);
    const weekly = await create({ name: 'Semanal', ClientsIds: [account], frequency: 'weekly', emails: ['ana@tienda.co'] });
    expect(weekly.json()).toMatchObject({ code: '99931', errors: [{ field: 'day' }] });
    expect((await create({ name: 'Semanal', ClientsIds: [account], frequency: 'weekly', day: 8, emails: ['ana@tienda.co'] })).json().errors[0].field).toBe('day');
    const foreign = await otherCompany(h, ['sms']);
    const theirs = await newChannel(h, foreign.companyId, 'Ajena', 'sms');
    expect((await create({ name: 'X', ClientsIds: [theirs], frequency: 'daily', emails: ['ana@tienda.co'] })).json()).toMatchObject({ code: '99961', errors: [{ field: 'ClientsIds' }] });
    expect((await create({ name: 'X', ClientsIds: [account], frequency: 'daily', emails: ['no-es-correo'] })).statusCode).toBe(400);
    expect(await counts(h, ['report_schedules'])).toEqual(before);
  });

  it('runs once when due, covering the time since the run before, and its file is e-mailed once with a working link', async () => {
    const res = await create({ name: 'Diario de tráfico', ClientsIds: [account], frequency: 'daily', hour: 6, emails: ['Ana@Tienda.co', 'luis@tienda.co'] });
    expect(res.statusCode, res.body).toBe(200);
    const schedule = res.json();
    expect(schedule).toMatchObject({ frequency: 'daily', day: null, hour: 6, emails: ['ana@tienda.co', 'luis@tienda.co'], enabled: true, lastRunAt: null });
    // Its accounts by name, on the record and in the list (as the schedules screen shows them).
    expect(schedule).toMatchObject({ accountIds: [account], accounts: ['Programada'] });
    const inList = (await h.op('reportCenter.schedules', { token, params: product })).json().items.find((s: { id: number }) => s.id === schedule.id);
    expect(inList).toMatchObject({ accounts: ['Programada'] });
    const next = new Date(schedule.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(h.clock.now.getTime());
    const covered = new Date(next.getTime() - 86_400_000);
    // Traffic inside the period it will cover, and one message just before it.
    const inside = calendarDateOf(new Date(covered.getTime() + 3_600_000));
    const insideHour = (calendarDateOf(covered).day === inside.day ? 7 : 1);
    await insertMessages(h, companyId, [
      { account, day: formatYmd(inside), hour: insideHour, state: 'delivered', status: 3, to: '+573157780001' },
      { account, day: formatYmd(inside), hour: insideHour, state: 'failed', status: 99, to: '+573157780002' },
    ]);
    await h.db.insertInto('messages').values({
      company_id: companyId, channel_id: account, source: 'api', purpose: 'transactional', to_number: '+573157780009', body: 'antes', cost: 1, state: 'delivered', status_code: 3,
      not_before: covered, created_at: new Date(covered.getTime() - 1000), updated_at: covered,
    } as never).execute();

    // Not due yet: nothing.
    expect(await tick()).toBe(0);
    h.clock.advance(next.getTime() - h.clock.now.getTime() + 1000);
    await signIn();
    // Two processes tick at once: one run.
    const made = await Promise.all([tick(), tick()]);
    expect(made[0] + made[1]).toBe(1);
    expect(await tick()).toBe(0);
    const files = await h.db.selectFrom('report_files').selectAll().where('schedule_id', '=', schedule.id).execute();
    expect(files).toHaveLength(1);
    expect(files[0].params).toMatchObject({ accountIds: [account], from: covered.toISOString(), to: next.toISOString() });
    const after = (await h.op('reportCenter.schedule', { token, params: { ...product, id: schedule.id } })).json();
    expect(after.lastRunAt).toBe(next.toISOString());
    expect(new Date(after.nextRunAt).getTime()).toBe(next.getTime() + 86_400_000);

    // The e-mail waits for the file; then it goes once to each address.
    expect(await mail()).toBe(0);
    await drain();
    expect(await mail()).toBe(1);
    expect(await mail()).toBe(0);
    const [message] = await h.outbox('ana@tienda.co');
    expect(message.subject).toContain('Diario de tráfico');
    expect(message.body).toContain('2 filas');
    expect(await h.outbox('luis@tienda.co')).toHaveLength(1);
    const link = new URL(/https:\/\/sms\.example\.co(\S+)/.exec(message.body)![0]);
    const download = await h.op('reportCenter.downloadReportFile', {
      params: { ...product, processId: Number(files[0].id) }, query: { expires: link.searchParams.get('expires')!, signature: link.searchParams.get('signature')! },
    });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.body).toContain('+573157780001');
    expect(download.body).not.toContain('+573157780009');
    // Listed with the company's report files.
    const listed = (await h.op('reportCenter.reportFiles', { token, params: product, query: {} })).json().items;
    expect(listed.some((f: { processId: number }) => f.processId === Number(files[0].id))).toBe(true);
  });

  it('makes the runs missed while the server was down into one file with no gap, then counts the next from now; edits and deletes are the company\'s own', async () => {
    const schedule = (await create({ name: 'Cada hora', ClientsIds: [account], frequency: 'hourly', emails: ['ops@tienda.co'] })).json();
    h.clock.advance(5 * 3_600_000);
    await signIn();
    expect(await tick()).toBe(1);
    expect(await tick()).toBe(0);
    const [made] = await h.db.selectFrom('report_files').select(['id', 'params']).where('schedule_id', '=', schedule.id).execute();
    // The missed runs become one file covering their five hours, up to the last hour that passed.
    const p = made.params as { from: string; to: string };
    expect(new Date(p.from)).toEqual(new Date(new Date(schedule.nextRunAt).getTime() - 3_600_000));
    expect(new Date(p.to).getTime() - new Date(p.from).getTime()).toBe(5 * 3_600_000);
    expect(new Date(p.to).getTime()).toBeLessThanOrEqual(h.clock.now.getTime());
    // Its e-mail names the hours it covers, in Bogotá time, not only the day.
    await drain();
    expect(await mail()).toBe(1);
    const [hourly] = await h.outbox('ops@tienda.co');
    const bogota = (iso: string) => { const w = wallTimeOf(new Date(iso)); return `${formatYmd(w)} ${String(w.hour).padStart(2, '0')}:00`; };
    expect(hourly.subject).toContain(`${bogota(p.from)} – ${bogota(p.to)}`);
    expect(hourly.body).toContain(`del ${bogota(p.from)} al ${bogota(p.to)}`);
    const row = (await h.op('reportCenter.schedule', { token, params: { ...product, id: schedule.id } })).json();
    expect(new Date(row.nextRunAt).getTime()).toBeGreaterThan(h.clock.now.getTime());

    const monthly = await h.op('reportCenter.updateSchedule', { token, params: { ...product, id: schedule.id }, body: { frequency: 'monthly', day: 31, hour: 0 } });
    expect(monthly.statusCode, monthly.body).toBe(200);
    const nextMonthly = new Date(monthly.json().nextRunAt);
    const wall = calendarDateOf(nextMonthly);
    expect(instantOf({ ...wall, hour: 0, minute: 0, second: 0 })).toEqual(nextMonthly);
    expect(wall.day).toBe(Math.min(31, daysInMonth(wall.year, wall.month)));
    expect((await h.op('reportCenter.updateSchedule', { token, params: { ...product, id: schedule.id }, body: { frequency: 'weekly' } })).json()).toMatchObject({ code: '99931' });

    const foreign = await otherCompany(h, ['sms']);
    expect((await h.op('reportCenter.schedule', { token: foreign.token, params: { ...product, id: schedule.id } })).json().code).toBe('99959');
    expect((await h.op('reportCenter.deleteSchedule', { token: foreign.token, params: { ...product, id: schedule.id } })).json().code).toBe('99959');
    expect((await h.op('reportCenter.schedules', { token: foreign.token, params: product, query: {} })).json().items).toEqual([]);
    const mine = (await h.op('reportCenter.schedules', { token, params: product, query: { frequency: 'monthly' } })).json().items;
    expect(mine.map((s: { name: string }) => s.name)).toEqual(['Cada hora']);
    expect((await h.op('reportCenter.deleteSchedule', { token, params: { ...product, id: schedule.id } })).json()).toEqual({ ok: true });
    // Its files stay in the report center.
    expect(await h.db.selectFrom('report_files').select('schedule_id').where('id', '=', made.id).executeTakeFirst()).toEqual({ schedule_id: null });
  });

  it('writes its files and e-mails in the language of whoever saved it', async () => {
    const english = { 'accept-language': 'en' };
    const res = await h.op('reportCenter.createSchedule', { token, params: product, headers: english, body: { name: 'Daily traffic', ClientsIds: [account], frequency: 'daily', hour: 5, emails: ['mary@tienda.co'] } });
    expect(res.statusCode, res.body).toBe(200);
    const schedule = res.json();
    h.clock.advance(new Date(schedule.nextRunAt).getTime() - h.clock.now.getTime() + 1000);
    await signIn();
    expect(await tick()).toBeGreaterThanOrEqual(1);
    await drain();
    expect(await mail()).toBeGreaterThanOrEqual(1);
    const [message] = await h.outbox('mary@tienda.co');
    expect(message.subject).toContain('Scheduled report “Daily traffic”');
    expect(message.body).toContain('is ready');
    const file = await h.db.selectFrom('report_files').select(['id', 'language']).where('schedule_id', '=', schedule.id).executeTakeFirstOrThrow();
    expect(file.language).toBe('en');
    const link = new URL(/https:\/\/sms\.example\.co(\S+)/.exec(message.body)![0]);
    const download = await h.op('reportCenter.downloadReportFile', {
      params: { ...product, processId: Number(file.id) }, query: { expires: link.searchParams.get('expires')!, signature: link.searchParams.get('signature')! },
    });
    expect(download.body.startsWith('\ufeffDate (Bogotá),Account,Number,State')).toBe(true);
    // Saved again by someone working in Spanish: its next files are Spanish.
    await h.op('reportCenter.updateSchedule', { token, params: { ...product, id: schedule.id }, headers: { 'accept-language': 'es-CO' }, body: { enabled: false } });
    expect((await h.db.selectFrom('report_schedules').select('language').where('id', '=', schedule.id).executeTakeFirstOrThrow()).language).toBe('es');
  });

  it('makes any report screen\'s table on time: tried before it is saved, asked as its author for the days it covers, written in the screen\'s words', async () => {
    const screenFiles = () => writeScreenFiles({ db: h.db, now: () => h.clock.now, storage: h.storage, run: injectedScreenRunner(h.app, { db: h.db, now: () => h.clock.now }) });
    const general = (payload: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      create({ name: 'Tráfico general', screen: 'reportsGeneral', payload, frequency: 'daily', hour: 7, emails: ['gerencia@tienda.co'], ...extra });
    const before = await counts(h, ['report_schedules', 'report_files']);
    // Refused with the screen operation's own answer (a trial run today, as the author), and nothing saved.
    const foreign = await otherCompany(h, ['sms']);
    const theirs = await newChannel(h, foreign.companyId, 'Ajena 2', 'sms');
    expect((await general({ ClientId: [theirs], AggregationLevel: 1 })).json()).toMatchObject({ code: '99961', errors: [{ field: 'payload.ClientId' }] });
    expect((await create({ name: 'X', screen: 'noExiste', payload: {}, frequency: 'daily', emails: ['a@b.co'] })).json()).toMatchObject({ code: '99931', errors: [{ field: 'screen' }] });
    // A report screen that writes (the block list's "add numbers") is never scheduled: each run would add them again.
    expect((await create({ name: 'X', screen: 'blockListAdd', payload: { numbers: '3001234567' }, frequency: 'daily', emails: ['a@b.co'] })).json()).toMatchObject({ code: '99931', errors: [{ field: 'screen' }] });
    // A screen's schedule reports on the screen's filters, not on ClientsIds; a body needs a screen; accounts or a screen are needed.
    expect((await general({ ClientId: [account] }, { ClientsIds: [account] })).json()).toMatchObject({ code: '99931', errors: [{ field: 'ClientsIds' }] });
    expect((await create({ name: 'X', payload: { a: 1 }, ClientsIds: [account], frequency: 'daily', emails: ['a@b.co'] })).json()).toMatchObject({ code: '99931', errors: [{ field: 'payload' }] });
    expect((await create({ name: 'X', frequency: 'daily', emails: ['a@b.co'] })).json()).toMatchObject({ errors: [{ field: 'ClientsIds' }] });
    expect(await counts(h, ['report_schedules', 'report_files'])).toEqual(before);

    const res = await general({ ClientId: [account], AggregationLevel: 1, DateStart: '2020-01-01', DateEnd: '2020-01-02' });
    expect(res.statusCode, res.body).toBe(200);
    const schedule = res.json();
    expect(schedule).toMatchObject({ reportTypeId: 3, screen: 'reportsGeneral', payload: { ClientId: [account], AggregationLevel: 1 }, accountIds: [] });
    const next = new Date(schedule.nextRunAt);
    const covered = new Date(next.getTime() - 86_400_000);
    const inside = calendarDateOf(new Date(covered.getTime() + 2 * 3_600_000));
    await insertMessages(h, companyId, [
      { account, day: formatYmd(inside), hour: wallTimeOf(new Date(covered.getTime() + 2 * 3_600_000)).hour, state: 'delivered', status: 3, to: '+573157781001' },
      { account, day: formatYmd(inside), hour: wallTimeOf(new Date(covered.getTime() + 2 * 3_600_000)).hour, state: 'failed', status: 99, to: '+573157781002' },
    ]);
    h.clock.advance(next.getTime() - h.clock.now.getTime() + 1000);
    await signIn();
    expect(await tick()).toBeGreaterThanOrEqual(1);
    const file = await h.db.selectFrom('report_files').selectAll().where('schedule_id', '=', schedule.id).executeTakeFirstOrThrow();
    // A screen's file is no job's: it waits for writeScreenFiles, and two processes write it once.
    expect(file).toMatchObject({ report_type_id: 3, state: 'enlist' });
    const written = await Promise.all([screenFiles(), screenFiles()]);
    expect(written[0] + written[1]).toBe(1);
    const ready = await h.db.selectFrom('report_files').selectAll().where('id', '=', file.id).executeTakeFirstOrThrow();
    expect(ready.state, ready.error ?? '').toBe('ready');
    expect(await mail()).toBeGreaterThanOrEqual(1);
    const [message] = await h.outbox('gerencia@tienda.co');
    const link = new URL(/https:\/\/sms\.example\.co(\S+)/.exec(message.body)![0]);
    const download = await h.op('reportCenter.downloadReportFile', {
      params: { ...product, processId: Number(file.id) }, query: { expires: link.searchParams.get('expires')!, signature: link.searchParams.get('signature')! },
    });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-disposition']).toContain('reporte-programado');
    const lines = download.body.replace('\ufeff', '').trim().split('\r\n').map((l) => l.split(';'));
    // The screen's columns in its words, and the covered day's traffic as the screen shows it.
    expect(lines[0]).toEqual(['Periodo', 'Cuenta', 'Mensajes', 'Entregados', 'Fallidos', 'Pendientes', 'Enviados', 'Bloqueados o rechazados', 'Cancelados', 'Créditos consumidos']);
    expect(lines).toContainEqual([formatYmd(inside), 'Programada', '2', '1', '1', '0', '0', '0', '0', '2']);
    expect(Number(ready.rows)).toBe(lines.length - 1);
    expect(ready.params).toMatchObject({ screen: 'reportsGeneral', from: covered.toISOString(), to: next.toISOString() });

    // An author who may no longer read the screen: the run is refused as the screen would refuse it, in words.
    const author = await h.db.selectFrom('users').select('id').where('email', '=', EMAIL).executeTakeFirstOrThrow();
    const roles = await h.db.selectFrom('user_roles').selectAll().where('user_id', '=', author.id).execute();
    await h.db.deleteFrom('user_roles').where('user_id', '=', author.id).execute();
    try {
      h.clock.advance(86_400_000);
      expect(await tick()).toBeGreaterThanOrEqual(1);
      expect(await screenFiles()).toBeGreaterThanOrEqual(1);
      const refused = await h.db.selectFrom('report_files').selectAll().where('schedule_id', '=', schedule.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(refused.state).toBe('error');
      expect(refused.error).toMatch(/^9998\d: /);
    } finally {
      await h.db.insertInto('user_roles').values(roles as never).execute();
    }
    // The run's one-request tokens were revoked after it.
    expect(await h.db.selectFrom('tokens').select('id').where('user_id', '=', author.id).where('revoked_at', 'is', null).where('expires_at', '>', h.clock.now).where('expires_at', '<', new Date(h.clock.now.getTime() + 10 * 60_000)).execute()).toEqual([]);
  });
});
