// The FTP intake (issue 14, getImpFtpReport): a company that keeps its sends in files names its FTP
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
// Outside the sandbox the folder must be on the public Internet (the company types the host):
// the name is resolved once, every address must be public, and the connection goes to the address
// checked; transfers go to that same host (basic-ftp refuses another one in PASV answers).
import { lookup } from 'node:dns/promises';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client, type FileInfo } from 'basic-ftp';
import { sql } from 'kysely';
import { constants } from '../../generated/constants.gen.ts';
import type { ServerDeps, Session } from '../context.ts';
import { ApiError } from '../errors/api-error.ts';
import { launchCampaign } from '../modules/campaigns/launch.ts';
import { recipientsTarget } from '../modules/campaigns/recipients-target.ts';
import { storeRecipients } from '../modules/campaigns/recipients-upload.ts';
import { ftpAccessOf, type FtpAccess } from '../modules/credentials/ftp-settings.ts';
import { isPublicAddress, privateHostReason } from './public-address.ts';

/** A recipients file's name: the campaign's id, then anything, then its extension. */
const FILE_NAME = new RegExp(`^(\\d{1,9})(?:[-_ .][^/]*)?\\.(${constants.uploads.campaignFileExtensions.join('|')})$`, 'i');
const DATA_FILE = new RegExp(`\\.(${constants.uploads.campaignFileExtensions.join('|')})$`, 'i');
const PROCESSED = 'processed';
const REFUSED = 'refused';

export interface FtpIntakeDeps extends ServerDeps {
  /** The sandbox's folders are on this machine; elsewhere only public hosts are visited. */
  allowPrivateNetworks: boolean;
  log?: (message: string, detail?: unknown) => void;
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
    try {
      await visitFolder(deps, due.company_id, access);
    } catch (e) {
      error = folderError(e);
      deps.log?.(`ftp intake: company ${due.company_id}'s folder could not be read`, error);
    }
    await deps.db.updateTable('api_settings').set({ ftp_visited_at: deps.now(), ftp_last_error: error }).where('company_id', '=', due.company_id).execute();
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

/** The address to connect to: the host's, checked public outside the sandbox. */
async function addressOf(host: string, allowPrivate: boolean): Promise<string> {
  if (allowPrivate) return host;
  const reason = privateHostReason(host);
  if (reason) throw new Error(`refused: ${host} is ${reason}`);
  const addresses = await lookup(host, { all: true });
  const inner = addresses.find((a) => !isPublicAddress(a.address));
  if (inner || !addresses.length) throw new Error(`refused: ${host} resolves to a private address`);
  return addresses[0].address;
}

async function visitFolder(deps: FtpIntakeDeps, companyId: number, access: FtpAccess): Promise<void> {
  const client = new Client(constants.ftp.timeoutSeconds * 1000);
  try {
    await client.access({ host: await addressOf(access.host, deps.allowPrivateNetworks), port: access.port, user: access.user, password: access.password });
    await client.cd(access.directory);
    const files = (await client.list()).filter((f) => f.isFile && DATA_FILE.test(f.name))
      .sort((a, b) => (a.modifiedAt?.getTime() ?? 0) - (b.modifiedAt?.getTime() ?? 0) || a.name.localeCompare(b.name))
      .slice(0, constants.ftp.filesPerVisit);
    for (const file of files) await importFile(deps, client, companyId, file);
  } finally {
    client.close();
  }
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
  if (row.state !== 'reading') return moveAway(client, row.id, file.name, row.state === 'imported' ? PROCESSED : REFUSED);
  try {
    await launchFile(deps, client, companyId, row.id, file);
    await moveAway(client, row.id, file.name, PROCESSED);
  } catch (error) {
    const refusal = refusalOf(error);
    // Not the file's fault (the connection, the database): it stays 'reading' and is tried again at the next visit.
    if (!refusal) throw error;
    await db.updateTable('ftp_imports').set({ state: 'refused', code: refusal.code, detail: refusal.message.slice(0, 500), finished_at: deps.now() })
      .where('id', '=', row.id).where('state', '=', 'reading').execute();
    await moveAway(client, row.id, file.name, REFUSED);
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
  const author: Session = { tokenId: 0, userId: campaign.created_by, companyId, state: 'active', companyState: 'active', roles: [], grants: [], expiresAt: deps.now() };
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
  if (error instanceof ApiError) {
    const first = error.errors?.[0];
    return new Refusal(first?.code ?? error.code, first?.message ?? error.message);
  }
  return null;
}

/** Moves a finished file into `processed/` or `refused/` (made when missing), as `<import id>-<name>`. */
async function moveAway(client: Client, importId: number, name: string, folder: string): Promise<void> {
  await client.sendIgnoringError(`MKD ${folder}`);
  await client.rename(name, `${folder}/${importId}-${name}`);
}

/** What a visit met, for the report: the server's own words where it answered, never the password. */
function folderError(error: unknown): string {
  const e = error as Error & { code?: number | string };
  const text = e.message || String(error);
  return (typeof e.code === 'number' ? text : e.code ? `${e.code}: ${text}` : text).slice(0, 300);
}
