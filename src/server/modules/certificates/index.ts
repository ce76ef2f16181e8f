// Certificates (schemas/api/certificates.yaml): a statement about the company's own records
// (statements.ts) becomes canonical JSON, its SHA-256 is signed with the platform's Ed25519 key
// (security/secrets.ts: derived from the master key; every public key that ever signed is kept in
// certificate_keys), and the row keeps the statement byte for byte. The PDF (pdf.ts) is made from
// the row on each download through a signed link; /verify/{id} re-checks hash and signature.
import { randomUUID } from 'node:crypto';
import { type Kysely } from 'kysely';
import { canonicalJson } from '../../../core/canonical-json.ts';
import { dayAfter, dayStart } from '../../../core/date-range.ts';
import { normalizeColombianPhone } from '../../../core/phone.ts';
import type { Database } from '../../../engine/database.ts';
import { appSettings } from '../../../generated/app.gen.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { CertificateKind } from '../../../generated/enums.gen.ts';
import type { Certificate, CertificateVerification } from '../../../generated/types.gen.ts';
import type { Session } from '../../context.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers, type HandlerContext } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { requestOrigin } from '../../http/public-origin.ts';
import { verifyEd25519 } from '../../security/secrets.ts';
import { linkHolds, signLink } from '../../security/signed-links.ts';
import { companyAccounts, dateProblems, foreignAccounts } from '../reportCenter/report-scope.ts';
import { certificatePdf } from './pdf.ts';
import { verifyFile } from './file-verification.ts';
import { readUpload } from '../../files/intake.ts';
import { uploadLimitOf } from '../../http/operations.ts';
import { blockListEntry, campaignRecord, certifiedRowsKey, numberMessages, sha256Hex, subjectOf, type Statement, type StatementHead } from './statements.ts';

const TIME_ZONE = constants.sendWindow.timeZone;
const LINK_PURPOSE = 'certificate-pdf';
const ROWS_PURPOSE = 'certificate-rows';

type CertificateRow = { id: string; kind: string; subject: string; created_at: Date; sha256: string; signature: string; key_id: string; created_by_name?: string | null };

export const verifyPath = (id: string) => `/verify/${id}`;

const toCertificate = (r: CertificateRow): Certificate => ({
  id: r.id, kind: r.kind as CertificateKind, subject: r.subject, createdAt: new Date(r.created_at).toISOString(), createdBy: r.created_by_name ?? null,
  sha256: r.sha256, signature: r.signature, keyId: r.key_id, verifyPath: verifyPath(r.id),
});

/** The phone a certificate is about, as stored (+57…); the body's format already refused others (99963). */
function phoneOf(input: string): string {
  const phone = normalizeColombianPhone(input);
  if (!phone) throw failFields([fieldError('phone', '99963')]);
  return phone;
}

type Deps = HandlerContext<'certificates.blockList'>['deps'];

/** The certificate's PDF, signed as a whole (pdf.ts, signing/). */
function makePdf(deps: Deps, row: { id: string; statement: string; sha256: string; signature: string; key_id: string; public_key: string }, origin: string): Promise<Buffer> {
  return certificatePdf({
    statement: JSON.parse(row.statement) as Statement, canonical: row.statement, sha256: row.sha256, signature: row.signature, keyId: row.key_id, publicKey: row.public_key,
    verifyUrl: `${origin}${verifyPath(row.id)}`,
  }, deps.signing);
}

/** Signs the statement, makes its signed PDF and keeps both: the one place a certificate is made. */
async function issue(deps: Deps, origin: string, who: { companyId: number; userId: number | null }, statement: Statement): Promise<Certificate> {
  const db = deps.db;
  const canonical = canonicalJson(statement);
  const sha256 = sha256Hex(canonical);
  const signer = deps.secrets.signer();
  const signature = signer.sign(sha256);
  const createdAt = new Date(statement.issuedAt);
  const pdf = await makePdf(deps, { id: statement.id, statement: canonical, sha256, signature, key_id: signer.keyId, public_key: signer.publicKey }, origin);
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('certificate_keys').values({ key_id: signer.keyId, public_key: signer.publicKey, created_at: createdAt }).onConflict((oc) => oc.column('key_id').doNothing()).execute();
    await trx.insertInto('certificates').values({
      id: statement.id, company_id: who.companyId, kind: statement.kind, subject: subjectOf(statement), statement: canonical, sha256, signature, key_id: signer.keyId,
      created_by: who.userId, created_at: createdAt, pdf,
    }).execute();
  });
  return toCertificate({ id: statement.id, kind: statement.kind, subject: subjectOf(statement), created_at: createdAt, sha256, signature, key_id: signer.keyId, created_by_name: null });
}

/** The statement's head: a fresh id, the instant, the platform and the company as it is now. */
async function head<K extends CertificateKind>(ctx: { session: Session | null; deps: HandlerContext<'certificates.blockList'>['deps'] }, kind: K): Promise<StatementHead & { kind: K }> {
  const me = caller(ctx);
  const company = await ctx.deps.db.selectFrom('companies').select(['id', 'name', 'nit']).where('id', '=', me.companyId).executeTakeFirstOrThrow();
  const legal = ctx.deps.signing.issuer;
  return {
    version: 1, id: randomUUID(), kind, issuedAt: ctx.deps.now().toISOString(), issuer: appSettings.product.name, issuerLegal: { name: legal.legalName, nit: legal.nit },
    company: { id: company.id, name: company.name, nit: company.nit || null },
  };
}

const who = (ctx: { session: Session | null }) => ({ companyId: caller(ctx).companyId, userId: caller(ctx).userId });

async function rowOf(db: Kysely<Database>, id: string) {
  return db.selectFrom('certificates as c').innerJoin('certificate_keys as k', 'k.key_id', 'c.key_id')
    .select(['c.id', 'c.company_id', 'c.kind', 'c.subject', 'c.statement', 'c.sha256', 'c.signature', 'c.key_id', 'c.created_at', 'c.pdf', 'k.public_key'])
    .where('c.id', '=', id).executeTakeFirst();
}

export const certificatesHandlers: DomainHandlers<'certificates'> = {
  'certificates.getCertificate': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    const db = ctx.deps.db;
    const phone = phoneOf(b.phone);
    const problems = dateProblems(b.DateStart, b.DateEnd, ctx.deps.now());
    let accounts: { id: number; name: string }[] | null = null;
    if (b.ClientsIds?.length) {
      problems.push(...(await foreignAccounts(db, me.companyId, 'ClientsIds', b.ClientsIds)));
      accounts = (await companyAccounts(db, me.companyId)).filter((a) => b.ClientsIds!.includes(a.id)).map((a) => ({ id: a.id, name: a.name }));
    }
    if (problems.length) throw failFields(problems);
    const found = await numberMessages(db, {
      companyId: me.companyId, phone, from: dayStart(b.DateStart, TIME_ZONE), to: dayAfter(b.DateEnd, TIME_ZONE), accountIds: accounts?.map((a) => a.id) ?? null,
    });
    const statement = { ...(await head(ctx, 'number')), subject: { phone, dateStart: b.DateStart, dateEnd: b.DateEnd, accounts }, ...found };
    return issue(ctx.deps, requestOrigin(ctx.request), who(ctx), statement);
  },

  'certificates.campaigns': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    const db = ctx.deps.db;
    if (b.DeploymentId !== undefined) {
      const run = await db.selectFrom('deployments').select('campaign_id').where('id', '=', b.DeploymentId).where('company_id', '=', me.companyId).executeTakeFirst();
      if (!run || run.campaign_id !== b.campaignId) throw failFields([fieldError('DeploymentId', '99931', String(b.DeploymentId))]);
    }
    const statementHead = await head(ctx, 'campaign');
    // The rows as hashed, kept beside the certificate: the file a third party recomputes the digest from.
    const key = certifiedRowsKey(statementHead.id);
    let offset = await ctx.deps.storage.writeAt(key, 0, new Uint8Array());
    const record = await campaignRecord(db, { companyId: me.companyId, campaignId: b.campaignId, deploymentId: b.DeploymentId ?? null }, async (lines) => {
      offset = await ctx.deps.storage.writeAt(key, offset, Buffer.from(lines, 'utf8'));
    });
    if (!record) {
      await ctx.deps.storage.remove(key);
      throw fail('99959');
    }
    return issue(ctx.deps, requestOrigin(ctx.request), who(ctx), { ...statementHead, ...record });
  },

  'certificates.blockList': async (ctx) => {
    const me = caller(ctx);
    const phone = phoneOf(ctx.body.phone);
    const entry = await blockListEntry(ctx.deps.db, me.companyId, phone);
    return issue(ctx.deps, requestOrigin(ctx.request), who(ctx), { ...(await head(ctx, 'blockList')), subject: { phone }, listed: entry !== null, entry });
  },

  'certificates.dataCertificatesAccounts': async (ctx) => companyAccounts(ctx.deps.db, caller(ctx).companyId, ctx.body?.platform),

  'certificates.list': async (ctx) => {
    const me = caller(ctx);
    let base = ctx.deps.db.selectFrom('certificates as c').leftJoin('users as u', 'u.id', 'c.created_by')
      .select(['c.id', 'c.kind', 'c.subject', 'c.created_at', 'c.sha256', 'c.signature', 'c.key_id', 'u.full_name as created_by_name'])
      .where('c.company_id', '=', me.companyId);
    if (ctx.query.kind) base = base.where('c.kind', '=', ctx.query.kind);
    return paginate(base, ctx.query, {
      sortable: { createdAt: 'c.created_at' },
      defaultSort: { column: 'c.created_at', order: 'desc' },
      tieBreaker: 'c.id',
      search: ['c.subject'],
      map: (r) => toCertificate(r as CertificateRow),
    });
  },

  'certificates.link': async (ctx) => {
    const me = caller(ctx);
    const row = await ctx.deps.db.selectFrom('certificates').select(['id', 'kind']).where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!row) throw fail('99959');
    const link = signLink(ctx.deps.secrets, LINK_PURPOSE, `${row.id}.${me.companyId}`, ctx.deps.now(), constants.reports.downloadLinkMinutes);
    const rows = row.kind === 'campaign' && (await ctx.deps.storage.size(certifiedRowsKey(row.id))) !== null
      ? signLink(ctx.deps.secrets, ROWS_PURPOSE, `${row.id}.${me.companyId}`, ctx.deps.now(), constants.reports.downloadLinkMinutes)
      : null;
    return {
      url: `/v1/reports/certificate/${row.id}/pdf?expires=${link.expires}&signature=${link.signature}`,
      rowsUrl: rows ? `/v1/reports/certificate/${row.id}/rows?expires=${rows.expires}&signature=${rows.signature}` : null,
      expiresAt: link.expiresAt,
    };
  },

  'certificates.file': async (ctx) => {
    const row = await rowOf(ctx.deps.db, ctx.params.id);
    // One answer for a certificate that is not there and a link that is wrong.
    if (!row || !linkHolds(ctx.deps.secrets, LINK_PURPOSE, `${row.id}.${row.company_id}`, ctx.query.expires, ctx.query.signature, ctx.deps.now())) throw fail('99982');
    // Issued before PDFs were signed: made, signed and kept on its first download.
    let bytes: Buffer;
    if (row.pdf) bytes = Buffer.from(row.pdf);
    else {
      bytes = await makePdf(ctx.deps, row, requestOrigin(ctx.request));
      await ctx.deps.db.updateTable('certificates').set({ pdf: bytes }).where('id', '=', row.id).where('pdf', 'is', null).execute();
      // Two first downloads at once: both answer the one that was kept.
      const kept = await ctx.deps.db.selectFrom('certificates').select('pdf').where('id', '=', row.id).executeTakeFirstOrThrow();
      bytes = Buffer.from(kept.pdf ?? bytes);
    }
    ctx.reply.header('content-disposition', `attachment; filename="certificado-${row.id}.pdf"`);
    return { contentType: 'application/pdf', bytes };
  },

  'certificates.rowsFile': async (ctx) => {
    const row = await ctx.deps.db.selectFrom('certificates').select(['id', 'company_id']).where('id', '=', ctx.params.id).executeTakeFirst();
    const key = row ? certifiedRowsKey(row.id) : null;
    if (!row || !key || !linkHolds(ctx.deps.secrets, ROWS_PURPOSE, `${row.id}.${row.company_id}`, ctx.query.expires, ctx.query.signature, ctx.deps.now()) || (await ctx.deps.storage.size(key)) === null) throw fail('99982');
    ctx.reply.header('content-disposition', `attachment; filename="filas-certificado-${row.id}.csv"`);
    return { contentType: 'text/csv; charset=utf-8', bytes: ctx.deps.storage.read(key) };
  },

  'certificates.verifyFile': async (ctx) => {
    const limit = uploadLimitOf({ uploadLimit: 'certificateFileBytes' });
    const { bytes } = await readUpload(ctx.request, limit);
    if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw failFields([fieldError('file', '99932')]);
    return verifyFile(ctx.deps.db, bytes);
  },

  'certificates.verify': async (ctx) => {
    const row = await rowOf(ctx.deps.db, ctx.params.id);
    if (!row) throw fail('99959');
    return verification(row);
  },
};

/** What /verify/{id} shows: the stored statement re-hashed and its signature re-checked. */
export function verification(row: { id: string; kind: string; statement: string; sha256: string; signature: string; key_id: string; public_key: string }): CertificateVerification {
  const hashValid = sha256Hex(row.statement) === row.sha256;
  const signatureValid = verifyEd25519(row.public_key, row.sha256, row.signature);
  const s = JSON.parse(row.statement) as Statement;
  return {
    id: row.id, kind: row.kind as CertificateKind, check: !hashValid ? 'altered' : !signatureValid ? 'badSignature' : 'authentic', valid: hashValid && signatureValid, hashValid, signatureValid, issuedAt: s.issuedAt,
    company: s.company.name, nit: s.company.nit, subject: subjectOf(s), messages: s.kind === 'number' ? s.messages.length : s.kind === 'campaign' ? s.rows.count : null,
    sha256: row.sha256, signature: row.signature, keyId: row.key_id, publicKey: row.public_key, statement: row.statement,
  };
}
