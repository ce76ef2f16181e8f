// The FTP intake (getImpFtpReport): a company that keeps its sends in files names its FTP
// folder in the API settings (/profile/apiPermissions/settings), and the server visits it every
// `constants.ftp.visitSeconds`. Each recipients file there (csv, xls, xlsx) whose name starts with
// a campaign's id ("123_clientes-noviembre.csv") becomes that campaign's recipients, through the
// same intake and rules as an upload in the console, and is launched as one deployment of it, as
// the campaign's author — Infobip's and Twilio's bulk SFTP drop box, on the campaign a person
// wrote and approved. The file is then moved to `processed/` (or `refused/`, with the reason in
// the report), named `<import id>-<name>`, so the folder shows what is left to do.
//
// Exactly once: a file is known by its name, size and modification instant (ftp_imports, unique).
// Its row is written before it is read and finished in the launch's own transaction, so a crash
// before the launch commits reads it again at the next visit, and one after it only moves it.
// Folders are claimed with SKIP LOCKED and their next visit moved on first: several server
// processes never visit one folder at once.
//
// The connection is encrypted (explicit FTPS) whenever the server offers it (logIn).
// The folder goes only where the outbound policy lets it (outbound-guard.ts: the company types the
// host): the name is resolved once, every address must pass (public; in the sandbox its allowed
// stand-ins; never this server's own ports), and the connection goes to the address checked;
// transfers go to that same host (basic-ftp refuses another one in PASV answers).
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isIP } from 'node:net';
import { Client, FTPError, type FileInfo } from 'basic-ftp';
import { sql } from 'kysely';
import { constants } from '../../generated/constants.gen.ts';
import type { ServerDeps } from '../context.ts';
import { ApiError, messageFor } from '../errors/api-error.ts';
import { wordsFor } from '../i18n/document-words.ts';
import { launchCampaign } from '../../engine/campaigns/index.ts';
import { Refused } from '../../engine/refused.ts';
import { recipientsTarget } from '../modules/campaigns/recipients-target.ts';
import { storeRecipients } from '../modules/campaigns/recipients-upload.ts';
import { ftpAccessOf, type FtpAccess } from '../modules/credentials/ftp-settings.ts';
import { PrivateAddressError } from '../security/public-address.ts';

/** A recipients file's name: the campaign's id, then anything, then its extension. */
const EXTENSIONS = constants.uploads.campaignFileExtensions.join('|');
const FILE_NAME = new RegExp(`^(\\d{1,9})(?:[-_ .][^/]*)?\\.(${EXTENSIONS})$`, 'i');
/** A recipients file at all (the upload's extensions); the others in the folder are left alone. */
const DATA_FILE = new RegExp(`\\.(${EXTENSIONS})$`, 'i');
/**
 * A name no command can carry: a line break (which a server lists as U+FFFD, or leaves out, since
 * it would end the listing line) or another control character. Such a file is reported, never read.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const UNUSABLE_NAME = /[\u0000-\u001f\u007f\ufffd]/;
const PROCESSED = 'processed';
const REFUSED = 'refused';

export interface FtpIntakeDeps extends ServerDeps {
  log?: (message: string, detail?: unknown) => void;
  /** Certificates trusted besides the system's for FTPS (tests: the sandbox's self-signed one). */
  tlsCa?: string | Buffer;
}

/** A file's outcome that is not an import: a catalogue code (the server's, or the file processor's) and its detail. */
class Refusal extends Error {
  constructor(readonly code: string, message: string) { super(message); }
}

/** Visits the folders that are due, one after another; answers how many it visited. */
export async function visitDueFtpFolders(deps: FtpIntakeDeps): Promise<number> {
  let visited = 0;
  for (;;) {
    const due = await claimFolder(deps);
    if (!due) return visited;
    visited++;
    const access = ftpAccessOf(deps.secrets, due);
    if (!access) continue;
    let error: string | null = null;
    let visit: Visit | null = null;
    try {
      visit = await visitFolder(deps, due.company_id, access);
    } catch (e) {
      error = folderError(e);
      deps.log?.(`ftp intake: company ${due.company_id}'s folder could not be read`, error);
    }
    const settles = visit?.settlesAt ?? null;
    await deps.db.updateTable('api_settings').set({
      ftp_visited_at: deps.now(), ftp_last_error: error, ftp_encrypted: visit?.encrypted ?? null,
      // A file still being written is taken as soon as it has been still long enough, not a whole interval later
      // (null, settings saved meanwhile, already means the next round).
      ...(settles ? { ftp_next_visit_at: sql<Date>`case when ftp_next_visit_at is null then null else least(ftp_next_visit_at, ${settles}) end` } : {}),
    }).where('company_id', '=', due.company_id).execute();
  }
}

/** The next folder due, its next visit moved on in the claim's transaction. */
async function claimFolder(deps: FtpIntakeDeps) {
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const row = await sql<{ company_id: number; ftp_host: string | null; ftp_port: number | null; ftp_user: string | null; ftp_password: string | null; ftp_directory: string | null }>`
      select s.company_id, s.ftp_host, s.ftp_port, s.ftp_user, s.ftp_password, s.ftp_directory
      from api_settings s join companies c on c.id = s.company_id
      where s.ftp_host is not null and s.ftp_user is not null and s.ftp_password is not null and c.state = 'active'
        and (s.ftp_next_visit_at is null or s.ftp_next_visit_at <= ${now})
      order by s.ftp_next_visit_at nulls first, s.company_id limit 1 for update of s skip locked`.execute(trx);
    const due = row.rows[0];
    if (!due) return null;
    await trx.updateTable('api_settings').set({ ftp_next_visit_at: new Date(now.getTime() + constants.ftp.visitSeconds * 1000) })
      .where('company_id', '=', due.company_id).execute();
    return due;
  });
}

/** The address to connect to: the host's, checked by the outbound policy. */
async function addressOf(deps: FtpIntakeDeps, access: FtpAccess): Promise<string> {
  try {
    return (await deps.outbound.resolveTarget(access.host, access.port)).address;
  } catch (error) {
    throw error instanceof PrivateAddressError ? new Error(`refused: ${error.message}`) : error;
  }
}

/**
 * Connects and logs in, over explicit TLS (AUTH TLS) whenever the server offers it, so the
 * password and the files do not cross the Internet in clear; answers whether it is encrypted. A
 * server without TLS answers AUTH with a 5xx and is read in plain FTP, as it offers; a certificate
 * that does not verify is an error, never waved through.
 */
async function logIn(client: Client, address: string, access: FtpAccess, ca?: string | Buffer): Promise<boolean> {
  await client.connect(address, access.port);
  let encrypted = true;
  try {
    await client.useTLS({ host: address, ...(isIP(access.host) ? {} : { servername: access.host }), ...(ca ? { ca } : {}) });
  } catch (error) {
    if (!(error instanceof FTPError && error.code >= 500)) throw error;
    encrypted = false;
  }
  await client.sendIgnoringError('OPTS UTF8 ON');
  await client.login(access.user, access.password);
  await client.useDefaultSettings();
  return encrypted;
}

/** What a visit met: whether it was encrypted, and when the files it left because they were still being written will have settled. */
interface Visit { encrypted: boolean; settlesAt: Date | null }

/**
 * One visit: the folder's recipients files, oldest first. A file modified within the last
 * `constants.ftp.settleSeconds` may still be on its way up (a client writing it under its final
 * name): it is left for a visit once it has been still that long — read half-written, it would be
 * sent in part, and again whole once its size changed. A server that gives no modification
 * instant (LIST without MLSD) cannot be told apart: its files are taken as listed.
 */
async function visitFolder(deps: FtpIntakeDeps, companyId: number, access: FtpAccess): Promise<Visit> {
  const client = new Client(constants.ftp.timeoutSeconds * 1000);
  try {
    const encrypted = await logIn(client, await addressOf(deps, access), access, deps.tlsCa);
    await client.cd(access.directory);
    const settleMs = constants.ftp.settleSeconds * 1000;
    const now = deps.now().getTime();
    const all = (await client.list()).filter((f) => f.isFile && DATA_FILE.test(f.name));
    for (const file of all.filter((f) => UNUSABLE_NAME.test(f.name))) await reportUnusableName(deps, companyId, file);
    const listed = all.filter((f) => !UNUSABLE_NAME.test(f.name));
    const settling = listed.filter((f) => f.modifiedAt && now - f.modifiedAt.getTime() < settleMs);
    const files = listed.filter((f) => !settling.includes(f))
      .sort((a, b) => (a.modifiedAt?.getTime() ?? 0) - (b.modifiedAt?.getTime() ?? 0) || a.name.localeCompare(b.name))
      .slice(0, constants.ftp.filesPerVisit);
    for (const file of files) await importFile(deps, client, companyId, file);
    const settled = settling.map((f) => Math.max(f.modifiedAt!.getTime() + settleMs, now + 1000));
    return { encrypted, settlesAt: settled.length ? new Date(Math.min(...settled)) : null };
  } finally {
    client.close();
  }
}

/**
 * A file whose name holds a line break or another control character: no FTP command can name it
 * (to read or to move it), so it is reported refused once (the report and the notice say why) and
 * left where it is for a person to rename.
 */
async function reportUnusableName(deps: FtpIntakeDeps, companyId: number, file: FileInfo): Promise<void> {
  const now = deps.now();
  const refusal = new Refusal('99931', 'the file name holds a line break or another control character, which no FTP command can carry: rename the file');
  const inserted = await deps.db.insertInto('ftp_imports').values({
    company_id: companyId, file_name: file.name, bytes: file.size, modified_at: file.modifiedAt ?? null, state: 'refused', code: refusal.code,
    detail: refusal.message, created_at: now, finished_at: now,
  }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) await tellRefused(deps, companyId, file.name, refusal, 'la carpeta, sin mover');
}

/** One file: recorded, read, launched (or refused), then moved out of the way. */
async function importFile(deps: FtpIntakeDeps, client: Client, companyId: number, file: FileInfo): Promise<void> {
  const db = deps.db;
  const now = deps.now();
  const modified = file.modifiedAt ?? null;
  await db.insertInto('ftp_imports').values({ company_id: companyId, file_name: file.name, bytes: file.size, modified_at: modified, state: 'reading', created_at: now })
    .onConflict((oc) => oc.doNothing()).execute();
  const row = await db.selectFrom('ftp_imports').select(['id', 'state']).where('company_id', '=', companyId).where('file_name', '=', file.name)
    .where('bytes', '=', file.size).where(sql<boolean>`coalesce(modified_at, 'epoch'::timestamptz) = coalesce(${modified}::timestamptz, 'epoch'::timestamptz)`)
    .executeTakeFirstOrThrow();
  // Met before and finished (the move after it failed): only the move is left.
  if (row.state !== 'reading') {
    await moveAway(client, row.id, file.name, row.state === 'imported' ? PROCESSED : REFUSED);
    return;
  }
  try {
    await launchFile(deps, client, companyId, row.id, file);
    await moveAway(client, row.id, file.name, PROCESSED);
  } catch (error) {
    const refusal = refusalOf(error);
    // Not the file's fault (the connection, the database): it stays 'reading' and is tried again at the next visit.
    if (!refusal) throw error;
    const refused = await db.updateTable('ftp_imports').set({ state: 'refused', code: refusal.code, detail: refusal.message.slice(0, 500), finished_at: deps.now() })
      .where('id', '=', row.id).where('state', '=', 'reading').executeTakeFirst();
    const moved = await moveAway(client, row.id, file.name, REFUSED);
    // Told once (the visit that refused it), to whoever the company named for such notices.
    if (Number(refused.numUpdatedRows) > 0) await tellRefused(deps, companyId, file.name, refusal, moved);
  }
}

/**
 * A refused file is e-mailed to the API settings' notification address, when there is one: a file
 * dropped by another system is seldom watched by a person, and a refusal otherwise waits in the
 * report. In Spanish, the product's language (the company has no language of its own). A notice
 * that cannot be sent is logged and does not undo anything.
 */
async function tellRefused(deps: FtpIntakeDeps, companyId: number, fileName: string, refusal: Refusal, movedTo: string): Promise<void> {
  const settings = await deps.db.selectFrom('api_settings').select('notification_email').where('company_id', '=', companyId).executeTakeFirst();
  if (!settings?.notification_email) return;
  const words = wordsFor();
  const vars = { file: fileName, code: refusal.code, reason: words.errorText(refusal.code) ?? refusal.message, detail: refusal.message, moved: movedTo };
  try {
    await deps.messages.send({ channel: 'email', to: settings.notification_email, companyId, subject: words.text('ftpRefused.subject', vars), body: words.text('ftpRefused.body', vars) });
  } catch (error) {
    deps.log?.(`ftp intake: the notice of a refused file could not be sent (company ${companyId})`, (error as Error).message);
  }
}

async function launchFile(deps: FtpIntakeDeps, client: Client, companyId: number, importId: number, file: FileInfo): Promise<void> {
  const match = FILE_NAME.exec(file.name);
  if (!match) throw new Refusal('99985', 'the file name must start with the id of the campaign it is for (123_name.csv)');
  const campaignId = Number(match[1]);
  await deps.db.updateTable('ftp_imports').set({ campaign_id: campaignId }).where('id', '=', importId).execute();
  const limit = constants.uploads.campaignFileBytes;
  if (file.size > limit) throw new Refusal('99937', `the file has ${file.size} bytes; the limit is ${limit}`);
  const campaign = await deps.db.selectFrom('campaigns').select(['id', 'created_by']).where('id', '=', campaignId).where('company_id', '=', companyId).executeTakeFirst();
  if (!campaign) throw new Refusal('99985', `the company has no campaign ${campaignId}`);
  if (!campaign.created_by) throw new Refusal('99985', `campaign ${campaignId}'s author is no longer a user`);
  // The file is launched as the campaign's author, within the author's company.
  const author = { userId: campaign.created_by, companyId };
  const target = await recipientsTarget(deps, author, campaignId);
  // Streamed from the FTP data connection into the recipients intake; a server that sends more than it listed is cut at the limit.
  const input = new PassThrough();
  let received = 0;
  let cut = false;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > limit) { cut = true; done(); return; }
      done(null, chunk);
    },
  });
  const download = pipeline(guard, input).catch(() => undefined);
  const transfer = client.downloadTo(guard, file.name);
  let summary;
  try {
    summary = await storeRecipients(deps.db, { fileName: file.name, input, field: 'file', truncated: () => cut }, target, author.userId, deps.now());
  } catch (error) {
    guard.destroy();
    await transfer.catch(() => undefined);
    throw error;
  }
  await transfer;
  await download;
  await launchCampaign(deps, author, campaignId, async (trx, deploymentId) => {
    await trx.updateTable('ftp_imports').set({
      state: 'imported', deployment_id: deploymentId, rows: summary.rows, sendable: summary.pass + summary.warn, refused: summary.fail + summary.error, finished_at: deps.now(),
    }).where('id', '=', importId).execute();
  });
}

/** A refusal the report shows (the file, the campaign or the credits), or null for a failure to try again. */
function refusalOf(error: unknown): Refusal | null {
  if (error instanceof Refusal) return error;
  if (error instanceof Refused) return new Refusal(error.code, error.detail ?? messageFor(error.code));
  if (error instanceof ApiError) {
    const first = error.errors?.[0];
    return new Refusal(first?.code ?? error.code, first?.message ?? error.message);
  }
  return null;
}

/** Moves a finished file into `processed/` or `refused/` (made when missing), as `<import id>-<name>`; answers where. */
async function moveAway(client: Client, importId: number, name: string, folder: string): Promise<string> {
  const target = `${folder}/${importId}-${name}`;
  await client.sendIgnoringError(`MKD ${folder}`);
  await client.rename(name, target);
  return target;
}

/** What a visit met, for the report: the server's own words where it answered, never the password. */
function folderError(error: unknown): string {
  const e = error as Error & { code?: number | string };
  const text = e.message || String(error);
  return (typeof e.code === 'number' ? text : e.code ? `${e.code}: ${text}` : text).slice(0, 300);
}
