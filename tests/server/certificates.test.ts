// Certificates (schemas/api/certificates.yaml) on the database (PGlite, or PostgreSQL with
// DATABASE_URL): a certificate states the company's own records (messages to a number with their
// receipt trail and clicks, a campaign's outcome and its rows' digest, a number's block-list
// entry), its PDF is read back with pdf.js and verified from what it prints and carries (hash of
// the attached statement, Ed25519 signature under the published key), a tampered copy fails, the
// public verification re-checks the stored statement, and every refusal changes nothing.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, calendarDateOf, formatYmd } from '../../src/core/bogota-time.ts';
import { canonicalJson } from '../../src/core/canonical-json.ts';
import { verifyEd25519 } from '../../src/server/security/secrets.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { demoCompanyId, otherCompany } from './messaging-fixtures.ts';
import { readPdf } from './pdf-reader.ts';
import { insertMessages, newChannel, newRun } from './report-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'develop');
let company: number;
let account: number;
let second: number;
let yesterday: string;
let today: string;
const PHONE = '+573157770001';

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const numberCertificate = (body: Record<string, unknown>, token = tokens.develop) => h.op('certificates.getCertificate', { token, body });

/** The certificate's PDF through its signed link, without a session. */
async function pdfOf(id: string, token = tokens.develop): Promise<Buffer> {
  const link = await h.op('certificates.link', { token, params: { id } });
  expect(link.statusCode, link.body).toBe(200);
  const url = new URL(link.json().url, 'http://localhost');
  const file = await h.op('certificates.file', { params: { id }, query: { expires: url.searchParams.get('expires')!, signature: url.searchParams.get('signature')! } });
  expect(file.statusCode, file.body).toBe(200);
  expect(file.headers['content-type']).toContain('application/pdf');
  return file.rawPayload;
}

/** What a person holding only the PDF can check: the attached statement hashes to the printed hash, and the printed signature of that hash checks with the printed key. */
function checkCopy(text: string, statement: Buffer | undefined): { hashValid: boolean; signatureValid: boolean } {
  const printed = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(text)?.[1] ?? '';
  const hash = printed('SHA-256 de la declaración');
  return {
    hashValid: statement !== undefined && sha256(statement) === hash,
    signatureValid: verifyEd25519(printed('Llave pública'), hash, printed('Firma Ed25519')),
  };
}

beforeAll(async () => {
  company = await demoCompanyId(h);
  today = formatYmd(calendarDateOf(h.clock.now));
  yesterday = formatYmd(addDays(calendarDateOf(h.clock.now), -1));
  account = await newChannel(h, company, 'Certificados A', 'sms');
  second = await newChannel(h, company, 'Certificados B', 'sms');
  await insertMessages(h, company, [
    { account, day: yesterday, hour: 9, state: 'delivered', status: 3, to: PHONE, latencyMs: 1500, network: '732123' },
    { account: second, day: yesterday, hour: 10, state: 'failed', status: 99, to: PHONE },
    { account, day: yesterday, hour: 11, state: 'delivered', status: 3, to: '+573157770002', latencyMs: 900 },
  ]);
  const delivered = await h.db.selectFrom('messages').select(['id', 'sent_at', 'done_at']).where('to_number', '=', PHONE).where('channel_id', '=', account).executeTakeFirstOrThrow();
  await h.db.insertInto('message_events').values([
    { message_id: delivered.id, at: delivered.sent_at!, state: 'sent', delivery_status: 'SENT', status_code: 2, detail: null },
    { message_id: delivered.id, at: delivered.done_at!, state: 'delivered', delivery_status: 'DELIVERED', status_code: 3, detail: null },
  ]).execute();
  // The number's own short link, opened once by a person and once by a link-preview robot.
  const link = await h.db.insertInto('short_links').values({ company_id: company, code: 'CertA01', url: 'https://tienda.example.co/oferta', phone: PHONE, tags: '[]', created_at: delivered.sent_at! }).returning('id').executeTakeFirstOrThrow();
  const clickAt = new Date(delivered.done_at!.getTime() + 60_000);
  await h.db.insertInto('short_link_clicks').values([
    { company_id: company, link_id: link.id, root_id: link.id, campaign_id: null, at: clickAt, bot: false, device: 'mobile', referrer: null, visitor: 'v1' },
    { company_id: company, link_id: link.id, root_id: link.id, campaign_id: null, at: clickAt, bot: true, device: 'bot', referrer: null, visitor: 'v2' },
  ]).execute();
  // Another company's message to the same number is never stated.
  const other = await otherCompany(h, ['sms']);
  await insertMessages(h, other.companyId, [{ account: await newChannel(h, other.companyId, 'Ajena', 'sms'), day: yesterday, hour: 9, state: 'delivered', status: 3, to: PHONE }]);
}, 180_000);

describe('a number certificate', () => {
  it('states every message of the company to the number with its receipts and clicks, in a PDF that verifies from its own contents', async () => {
    const res = await numberCertificate({ phone: '315 777 0001', DateStart: yesterday, DateEnd: today });
    expect(res.statusCode, res.body).toBe(200);
    const cert = res.json();
    expect(cert).toMatchObject({ kind: 'number', subject: `${PHONE} · ${yesterday} – ${today}`, verifyPath: `/verify/${cert.id}` });
    expect(cert.id).toMatch(/^[0-9a-f-]{36}$/);

    const pdf = await readPdf(await pdfOf(cert.id));
    const statement = pdf.attachments['certificate.json'];
    const stated = JSON.parse(statement.toString('utf8'));
    expect(stated.messages.map((m: { account: { name: string } }) => m.account.name)).toEqual(['Certificados B', 'Certificados A']);
    const sent = stated.messages[1];
    expect(sent).toMatchObject({ recipient: PHONE, content: 'hola', contentSha256: sha256('hola'), state: 'delivered', operator: 'Movistar' });
    expect(sent.acceptedAt).not.toBeNull();
    expect(new Date(sent.deliveredAt).getTime()).toBeGreaterThan(new Date(sent.acceptedAt).getTime());
    expect(sent.receipts.map((r: { deliveryStatus: string }) => r.deliveryStatus)).toEqual(['SENT', 'DELIVERED']);
    expect(sent.clicks).toEqual([expect.objectContaining({ device: 'mobile', url: 'https://tienda.example.co/oferta' })]);
    expect(stated.messages[0].clicks).toEqual([]);
    // What the PDF prints: the id, the company, the number, the content's hash, the verification page.
    expect(pdf.text).toContain(cert.id);
    expect(pdf.text).toContain('Demo');
    expect(pdf.text).toContain(PHONE);
    expect(pdf.text).toContain(sha256('hola'));
    expect(pdf.text).toContain('Entregado al teléfono');
    expect(pdf.text).toContain(`/verify/${cert.id}`);
    expect(canonicalJson(stated)).toBe(statement.toString('utf8'));
    expect(checkCopy(pdf.text, statement)).toEqual({ hashValid: true, signatureValid: true });

    // The public verification agrees, without a session.
    const verified = (await h.op('certificates.verify', { params: { id: cert.id } })).json();
    expect(verified).toMatchObject({ id: cert.id, valid: true, hashValid: true, signatureValid: true, sha256: cert.sha256, messages: 2, subject: cert.subject, statement: statement.toString('utf8') });

    // A copy whose statement was changed (another number) no longer hashes to the printed hash;
    // one re-hashed and re-signed with another key fails the platform's key.
    const altered = Buffer.from(canonicalJson({ ...stated, subject: { ...stated.subject, phone: '+573009999999' } }));
    expect(checkCopy(pdf.text, altered)).toEqual({ hashValid: false, signatureValid: true });
    const forger = generateKeyPairSync('ed25519');
    const forged = sign(null, Buffer.from(sha256(altered)), forger.privateKey).toString('base64');
    const forgedText = pdf.text.replace(cert.sha256, sha256(altered)).replace(cert.signature, forged);
    expect(checkCopy(forgedText, altered)).toEqual({ hashValid: true, signatureValid: false });
  });

  it('narrows to the chosen accounts (the company\'s, offered by dataCertificatesAccounts), and states the absence of messages too', async () => {
    const offered = (await h.op('certificates.dataCertificatesAccounts', { token: tokens.develop, body: { platform: 'sms' } })).json();
    expect(offered).toEqual(expect.arrayContaining([{ id: second, name: 'Certificados B', platform: 'sms' }]));
    expect(offered.every((a: { platform: string }) => a.platform === 'sms')).toBe(true);
    const one = (await numberCertificate({ phone: PHONE, DateStart: yesterday, DateEnd: today, ClientsIds: [second] })).json();
    const stated = JSON.parse((await readPdf(await pdfOf(one.id))).attachments['certificate.json'].toString('utf8'));
    expect(stated.messages.map((m: { state: string }) => m.state)).toEqual(['failed']);
    expect(stated.subject.accounts).toEqual([{ id: second, name: 'Certificados B' }]);
    const none = (await numberCertificate({ phone: '3157770009', DateStart: yesterday, DateEnd: today })).json();
    const empty = await readPdf(await pdfOf(none.id));
    expect(empty.text).toContain('La empresa no envió mensajes a este número en el periodo.');
  });

  it('refuses no number or a number that is not Colombian, bad dates, another company\'s account and roles without the component, issuing nothing', async () => {
    const before = await h.count('certificates' as never);
    expect((await numberCertificate({ phone: ' ', DateStart: yesterday, DateEnd: today })).json()).toMatchObject({ code: '99963', errors: [{ field: 'phone' }] });
    expect((await numberCertificate({ phone: '12345', DateStart: yesterday, DateEnd: today })).json()).toMatchObject({ code: '99963', errors: [{ field: 'phone' }] });
    const tomorrow = formatYmd(addDays(calendarDateOf(h.clock.now), 1));
    const codes = (await numberCertificate({ phone: PHONE, DateStart: tomorrow, DateEnd: yesterday, ClientsIds: [999999] })).json().errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort();
    expect(codes).toEqual(['ClientsIds:99961', 'DateEnd:99958', 'DateStart:99962']);
    expect((await numberCertificate({ phone: PHONE, DateStart: yesterday, DateEnd: today }, (await h.as('manager')).token)).statusCode).toBe(403);
    expect(await h.count('certificates' as never)).toBe(before);
  });
});

describe('a campaign certificate', () => {
  it('states the runs, the outcome by state and a digest of every recipient row', async () => {
    const { campaignId, deploymentId } = await newRun(h, company, account, 'Certificable', new Date(h.clock.now.getTime() - 86_400_000));
    await insertMessages(h, company, [
      { account, day: yesterday, hour: 14, state: 'delivered', status: 3, to: '+573157771001', deploymentId, latencyMs: 800 },
      { account, day: yesterday, hour: 14, state: 'delivered', status: 3, to: '+573157771002', deploymentId, latencyMs: 800 },
      { account, day: yesterday, hour: 14, state: 'failed', status: 99, to: '+573157771003', deploymentId },
    ]);
    const res = await h.op('certificates.campaigns', { token: tokens.develop, body: { campaignId } });
    expect(res.statusCode, res.body).toBe(200);
    const stated = JSON.parse((await readPdf(await pdfOf(res.json().id))).attachments['certificate.json'].toString('utf8'));
    expect(stated.outcome).toEqual({ total: 3, byState: { delivered: 2, failed: 1 } });
    expect(stated.deployments).toEqual([expect.objectContaining({ id: deploymentId })]);
    // Anyone with the rows can recompute the digest.
    const rows = await h.db.selectFrom('messages').select(['id', 'to_number', 'state', 'status_code', 'created_at', 'sent_at']).where('deployment_id', '=', deploymentId).orderBy('id').execute();
    const lines = rows.map((r) => `${[r.id, r.to_number, r.state, r.status_code, new Date(r.created_at).toISOString(), r.sent_at ? new Date(r.sent_at).toISOString() : '', ''].join(',')}\n`).join('');
    expect(stated.rows).toEqual({ count: 3, columns: ['id', 'to', 'state', 'statusCode', 'submittedAt', 'acceptedAt', 'deliveredAt'], sha256: sha256(lines) });
    // The console exports exactly those rows: the file's SHA-256 is the printed digest.
    const link = (await h.op('certificates.link', { token: tokens.develop, params: { id: res.json().id } })).json();
    const rowsUrl = new URL(link.rowsUrl, 'http://localhost');
    const rowsFile = await h.op('certificates.rowsFile', { params: { id: res.json().id }, query: { expires: rowsUrl.searchParams.get('expires')!, signature: rowsUrl.searchParams.get('signature')! } });
    expect(rowsFile.statusCode, rowsFile.body).toBe(200);
    expect(rowsFile.rawPayload.toString('utf8')).toBe(lines);
    expect(sha256(rowsFile.rawPayload)).toBe(stated.rows.sha256);
    const forged = await h.op('certificates.rowsFile', { params: { id: res.json().id }, query: { expires: rowsUrl.searchParams.get('expires')!, signature: 'A'.repeat(43) } });
    expect(forged.json().code).toBe('99982');
    // A link to the PDF is not a link to the rows.
    const pdfUrl = new URL(link.url, 'http://localhost');
    expect((await h.op('certificates.rowsFile', { params: { id: res.json().id }, query: { expires: pdfUrl.searchParams.get('expires')!, signature: pdfUrl.searchParams.get('signature')! } })).json().code).toBe('99982');

    const other = await newRun(h, company, account, 'Otra campaña', h.clock.now);
    expect((await h.op('certificates.campaigns', { token: tokens.develop, body: { campaignId, DeploymentId: other.deploymentId } })).json()).toMatchObject({ code: '99931', errors: [{ field: 'DeploymentId' }] });
    const foreign = await otherCompany(h, ['sms']);
    const theirs = await newRun(h, foreign.companyId, await newChannel(h, foreign.companyId, 'Suya', 'sms'), 'Ajena', h.clock.now);
    expect((await h.op('certificates.campaigns', { token: tokens.develop, body: { campaignId: theirs.campaignId } })).json().code).toBe('99959');
  });
});

describe('a block-list certificate', () => {
  it('states when the number was added and since when it blocks, or that it is not listed', async () => {
    const added = new Date(h.clock.now.getTime() - 3 * 86_400_000);
    await h.db.insertInto('block_list').values({ company_id: company, phone: '+573157772000', source: 'file', created_by: null, created_at: added, effective_at: new Date(added.getTime() + 86_400_000) }).execute();
    const listed = JSON.parse((await readPdf(await pdfOf((await h.op('certificates.blockList', { token: tokens.develop, body: { phone: '315 777 2000' } })).json().id))).attachments['certificate.json'].toString('utf8'));
    expect(listed).toMatchObject({ kind: 'blockList', listed: true, entry: { addedAt: added.toISOString(), source: 'file', effectiveAt: new Date(added.getTime() + 86_400_000).toISOString(), removalEffectiveAt: null } });
    const free = await h.op('certificates.blockList', { token: tokens.develop, body: { phone: '3157772001' } });
    const read = await readPdf(await pdfOf(free.json().id));
    expect(read.text).toContain('El número no está en la lista de exclusión de la empresa.');
  });
});

describe('the certificates list, links and verification', () => {
  it('lists the company\'s certificates only, signs links for them only, and re-checks a stored statement that was altered', async () => {
    const mine = (await h.op('certificates.list', { token: tokens.develop, query: { kind: 'number' } })).json();
    expect(mine.items.length).toBeGreaterThanOrEqual(3);
    expect(mine.items.every((c: { kind: string }) => c.kind === 'number')).toBe(true);
    const foreign = await otherCompany(h, ['sms']);
    expect((await h.op('certificates.list', { token: foreign.token, query: {} })).json().items).toEqual([]);
    const id = mine.items.find((c: { subject: string }) => c.subject.startsWith(PHONE)).id;
    expect((await h.op('certificates.link', { token: foreign.token, params: { id } })).json().code).toBe('99959');
    const url = new URL((await h.op('certificates.link', { token: tokens.develop, params: { id } })).json().url, 'http://localhost');
    const wrong = await h.op('certificates.file', { params: { id }, query: { expires: url.searchParams.get('expires')!, signature: 'A'.repeat(43) } });
    expect(wrong.json().code).toBe('99982');
    expect((await h.op('certificates.verify', { params: { id: 'no-existe' } })).json().code).toBe('99959');

    // Someone edits the stored statement: the page says the hash no longer holds.
    await sql`update certificates set statement = replace(statement, ${PHONE}, '+573000000000') where id = ${id}`.execute(h.db);
    expect((await h.op('certificates.verify', { params: { id } })).json()).toMatchObject({ valid: false, hashValid: false, signatureValid: true });
  });
});
