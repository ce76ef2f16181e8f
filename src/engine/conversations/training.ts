// A flow's training file: example phrases, each with the response it means — two
// columns, "frase" and "respuesta" (a response's label or one of its keywords, in any step of the
// flow). When a person's answer matches no response as written, the answer's normal form is
// looked up here and the meanings found are tried (core/flows/steps.ts, the send step's reply):
// "me gustaría pagar la factura" chooses "Pagar" without the flow listing every way to say it.
//
// The file (CSV, XLSX or XLS, up to uploads.flowTrainingFileBytes, 200 MB) is read as a stream
// (recipients/file-rows.ts) and stored in bounded transactions of STORE_BATCH rows under a new
// upload number, so the embedded database is never held by one long statement; when the whole file
// is read the flow points at the new upload in one short transaction, and the old phrases are
// deleted after, in batches. A file that fails part-way leaves the flow's phrases as they were.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Readable } from 'node:stream';
import { constants } from '../../generated/constants.gen.ts';
import type { TrainingRejection } from '../../generated/enums.gen.ts';
import type { FlowDefinition } from '../../generated/types.gen.ts';
import { MATCH_INPUT_LIMIT, normalizeAnswer } from '../../core/flows/matching.ts';
import type { Database } from '../database.ts';
import { invalidFile } from '../recipients/errors.ts';
import { emptyFacts, fileRows } from '../recipients/file-rows.ts';
import { ingestLimits } from '../recipients/ingest.ts';
import type { RawRow } from '../recipients/validate-row.ts';
import { jsonValue } from '../tables/columns.ts';

/** Rows stored per transaction, and old rows deleted per statement. */
const STORE_BATCH = 5000;
/** Refused rows the answer lists (all are counted). */
const REJECTED_LISTED = 200;
/** Meanings tried for one answer. */
const MEANINGS_TRIED = 20;

/** A first row naming its columns so is a header, not a phrase. */
const PHRASE_HEADERS = new Set(['frase', 'frases', 'phrase', 'phrases', 'ejemplo', 'ejemplos', 'example', 'examples', 'texto', 'text', 'mensaje', 'message']);
const MEANING_HEADERS = new Set(['respuesta', 'respuestas', 'response', 'responses', 'intencion', 'intent', 'significado', 'meaning', 'opcion', 'option']);

export interface TrainingResult {
  fileName: string;
  /** Rows read (the header row not counted). */
  rows: number;
  /** Phrases the flow now has (a phrase written twice with the same meaning counts once). */
  phrases: number;
  rejected: { position: number; value: string; reason: TrainingRejection }[];
  rejectedTotal: number;
}

/** The responses the flow's steps offer, by their labels and keywords in normal form (draft and published version). */
function meaningsOffered(definitions: readonly FlowDefinition[]): Set<string> {
  const offered = new Set<string>();
  for (const d of definitions) {
    for (const step of d.steps) {
      for (const r of step.settings.responses ?? []) {
        for (const word of [r.label, ...r.keywords]) {
          const key = normalizeAnswer(word);
          if (key) offered.add(key);
        }
      }
    }
  }
  return offered;
}

/** Why a row is not a training phrase, or null when it is one. */
function rowProblem(raw: RawRow, offered: Set<string>): TrainingRejection | null {
  if (raw.problem) return 'unreadable';
  const phrase = (raw.cells[0] ?? '').trim();
  const meaning = (raw.cells[1] ?? '').trim();
  if (!phrase) return 'emptyPhrase';
  if (!meaning) return 'emptyMeaning';
  if (phrase.length > MATCH_INPUT_LIMIT || !normalizeAnswer(phrase)) return 'invalidPhrase';
  if (!offered.has(normalizeAnswer(meaning))) return 'unknownMeaning';
  return null;
}

const isHeader = (raw: RawRow) =>
  PHRASE_HEADERS.has(normalizeAnswer(raw.cells[0] ?? '')) && MEANING_HEADERS.has(normalizeAnswer(raw.cells[1] ?? ''));

/**
 * Reads a training file and makes it the flow's (replacing the phrases it had). Throws 99994 when
 * the flow is not the company's, RecipientsFileError (99932, 99937) for the file as a whole.
 */
export async function storeTrainingFile(
  db: Kysely<Database>,
  target: { companyId: number; flowId: number },
  input: AsyncIterable<Uint8Array> | Readable,
  file: { fileName: string; declaredBytes?: number | null },
  now: Date,
  missingFlow: () => Error,
): Promise<TrainingResult> {
  // The next upload number, and what the flow's responses are (draft and published version).
  const claimed = (await sql<{ draft: unknown; published: unknown; upload: number }>`
    update flows f set training_uploads = training_uploads + 1
    where f.id = ${target.flowId} and f.company_id = ${target.companyId}
    returning f.draft, (select v.definition from flow_versions v where v.flow_id = f.id and v.version = f.published_version) as published, f.training_uploads as upload`.execute(db)).rows[0];
  if (!claimed) throw missingFlow();
  const offered = meaningsOffered([jsonValue<FlowDefinition>(claimed.draft), ...(claimed.published ? [jsonValue<FlowDefinition>(claimed.published)] : [])]);
  const upload = claimed.upload;
  const result: TrainingResult = { fileName: file.fileName, rows: 0, phrases: 0, rejected: [], rejectedTotal: 0 };
  let first = true;
  try {
    const limits = ingestLimits({ maxBytes: constants.uploads.flowTrainingFileBytes });
    for await (const rows of fileRows(input, { fileName: file.fileName, declaredBytes: file.declaredBytes, limits }, emptyFacts())) {
      const keep: { key: string; phrase: string; meaning: string; row: number }[] = [];
      for (const raw of rows) {
        if (raw.cells.every((c) => c.trim() === '') && !raw.problem) continue;
        if (first) {
          first = false;
          if (isHeader(raw)) continue;
        }
        result.rows++;
        const problem = rowProblem(raw, offered);
        if (problem) {
          result.rejectedTotal++;
          if (result.rejected.length < REJECTED_LISTED) result.rejected.push({ position: raw.row, value: (raw.cells[0] ?? '').slice(0, 200), reason: problem });
          continue;
        }
        const phrase = raw.cells[0].trim();
        keep.push({ key: normalizeAnswer(phrase), phrase, meaning: raw.cells[1].trim(), row: raw.row });
      }
      for (let i = 0; i < keep.length; i += STORE_BATCH) result.phrases += await storeBatch(db, target, upload, keep.slice(i, i + STORE_BATCH));
    }
    if (result.rows === 0) throw invalidFile('the file has no phrases');
    // The flow takes the new phrases at once (a later upload that finished first is not undone).
    const done = await sql`update flows set training_upload = ${upload}, training_phrases = ${result.phrases}, training_file = ${file.fileName}, training_at = ${now}
      where id = ${target.flowId} and company_id = ${target.companyId} and (training_upload is null or training_upload < ${upload})`.execute(db);
    if (Number(done.numAffectedRows ?? 0) > 0) await dropUploadsBelow(db, target.flowId, upload);
    else await dropUpload(db, target.flowId, upload);
    return result;
  } catch (error) {
    await dropUpload(db, target.flowId, upload);
    throw error;
  }
}

/** Stores a batch of phrases; answers how many were new. */
async function storeBatch(db: Kysely<Database>, target: { companyId: number; flowId: number }, upload: number, rows: readonly { key: string; phrase: string; meaning: string; row: number }[]): Promise<number> {
  if (!rows.length) return 0;
  // One statement from arrays; a phrase written twice with the same meaning is kept once.
  const done = await sql`insert into flow_training_phrases (flow_id, company_id, upload, phrase_key, phrase, meaning, row)
    select ${target.flowId}, ${target.companyId}, ${upload}, k, p, m, r
    from unnest(${rows.map((x) => x.key)}::text[], ${rows.map((x) => x.phrase)}::text[], ${rows.map((x) => x.meaning)}::text[], ${rows.map((x) => x.row)}::int[]) as t(k, p, m, r)
    on conflict do nothing`.execute(db);
  return Number(done.numAffectedRows ?? 0);
}

/** Deletes an upload's rows in batches (each its own short statement). */
async function dropUpload(db: Kysely<Database>, flowId: number, upload: number) {
  for (;;) {
    const done = await sql`delete from flow_training_phrases where flow_id = ${flowId} and upload = ${upload}
      and row in (select row from flow_training_phrases where flow_id = ${flowId} and upload = ${upload} order by row limit ${STORE_BATCH})`.execute(db);
    if (Number(done.numAffectedRows ?? 0) === 0) return;
  }
}

/** Deletes the flow's uploads numbered below `upload` (older files, and any left by a crash); a later one may still be being read. */
async function dropUploadsBelow(db: Kysely<Database>, flowId: number, upload: number) {
  const older = await db.selectFrom('flow_training_phrases').select('upload').distinct().where('flow_id', '=', flowId).where('upload', '<', upload).execute();
  for (const u of older) await dropUpload(db, flowId, u.upload);
}

/** What the flow's training file says an answer means (its current upload), for the runtime to try. */
export async function trainedMeanings(trx: Transaction<Database> | Kysely<Database>, flowId: number, upload: number, answer: string): Promise<string[]> {
  const key = normalizeAnswer(answer);
  if (!key) return [];
  const rows = await trx.selectFrom('flow_training_phrases').select('meaning')
    .where('flow_id', '=', flowId).where('upload', '=', upload).where('phrase_key', '=', key)
    .orderBy('row').limit(MEANINGS_TRIED).execute();
  return rows.map((r) => r.meaning);
}

/** Removes the flow's training file (answers are matched as written again). */
export async function clearTraining(db: Kysely<Database>, target: { companyId: number; flowId: number }, missingFlow: () => Error): Promise<void> {
  const row = await db.updateTable('flows').set({ training_upload: null, training_phrases: 0, training_file: null, training_at: null })
    .where('id', '=', target.flowId).where('company_id', '=', target.companyId).returning('training_uploads').executeTakeFirst();
  if (!row) throw missingFlow();
  await dropUploadsBelow(db, target.flowId, row.training_uploads + 1);
}
