// A campaign's recipients file: streamed from the multipart body through the recipients ingest
// (src/engine/recipients), never held whole in memory; rows are stored in batches as they are
// judged. A new file replaces the previous one. Whole-file problems answer their catalogue code
// (99932 invalid file, 99937 too large, 99955 columns missing) and leave the previous file as it was.
import type { Readable } from 'node:stream';
import { capabilitiesOf, reachOf } from '../../../engine/channels/index.ts';
import type { FastifyRequest } from 'fastify';
import { openUpload } from '../../files/intake.ts';
import type { Insertable, Kysely } from 'kysely';
import { variablesOf } from '../../../core/message-content.ts';
import { RecipientsFileError, ingestRecipients } from '../../../engine/recipients/index.ts';
import type { RecipientSummary } from '../../../generated/types.gen.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { Database } from '../../../engine/database.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';

export interface RecipientsCampaign { id: number; company_id: number; content: string; platform: string | null; templateId: number | null }

const INSERT_BATCH = 2000;

export async function storeRecipientsFile(db: Kysely<Database>, request: FastifyRequest, campaign: RecipientsCampaign, userId: number, now: Date): Promise<RecipientSummary> {
  // The one intake (files/intake.ts): too large is refused from the declared length, or at the first byte past the limit, before parsing.
  const upload = await openUpload(request, constants.uploads.campaignFileBytes);
  return storeRecipients(db, { fileName: upload.fileName, input: upload.bytes, field: 'file' }, campaign, userId, now);
}

/** Where a campaign's recipients come from: an uploaded file, or numbers pasted (recipients-paste.ts). */
export interface RecipientsSource {
  fileName: string;
  input: AsyncIterable<Uint8Array> | Readable;
  /** The request field a whole-file refusal is shown on. */
  field: 'file' | 'numbers';
  /** Whether the input was cut by a size limit before its end. */
  truncated?: () => boolean;
}

/** Reads, judges and stores a recipients file; on success it replaces the campaign's previous one. */
export async function storeRecipients(db: Kysely<Database>, source: RecipientsSource, campaign: RecipientsCampaign, userId: number, now: Date): Promise<RecipientSummary> {
  const { fileId, summary } = await readRecipients(db, source, campaign, userId, now);
  await db.transaction().execute(async (trx) => {
    const previous = await trx.selectFrom('campaigns').select('recipients_file_id').where('id', '=', campaign.id).executeTakeFirst();
    await trx.updateTable('campaigns').set({ recipients_file_id: fileId, updated_at: now }).where('id', '=', campaign.id).execute();
    // The replaced file goes unless a deployment was built from it (history keeps its own messages).
    if (previous?.recipients_file_id) await trx.deleteFrom('recipient_files').where('id', '=', previous.recipients_file_id).execute();
  });
  return summary;
}

/** What a file is judged for: the company, the message whose variables it must fill, its channel type and template; a campaign's, or none yet. */
export type RecipientsTarget = Omit<RecipientsCampaign, 'id'> & { id: number | null };

/**
 * Reads and judges a recipients file into its own stored rows (state ready), for a campaign or for
 * none yet (the provider's file processor); a whole-file problem stores nothing and answers its
 * code on the source's field.
 */
export async function readRecipients(db: Kysely<Database>, source: RecipientsSource, campaign: RecipientsTarget, userId: number, now: Date): Promise<{ fileId: number; summary: RecipientSummary }> {
  const file = await db.insertInto('recipient_files').values({
    company_id: campaign.company_id, campaign_id: campaign.id, file_name: source.fileName.slice(0, 255), bytes: 0, state: 'reading', created_by: userId, created_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  const ingest = ingestRecipients(source.input, {
    fileName: source.fileName,
    // A template campaign (a type with approved templates: WhatsApp) maps its parameters to columns
    // after the upload: no column is required by name, and every column of its file is kept for that mapping.
    variables: campaign.templateId === null ? variablesOf(campaign.content) : [],
    keepColumns: campaign.platform !== null && capabilitiesOf(campaign.platform).templates,
    // Fixed lines only where the channel type reaches them (its definition): never for SMS or RCS.
    allowFixedLines: campaign.platform !== null && reachOf(campaign.platform) !== 'mobile',
    now,
  });
  try {
    const pending: Insertable<Database['recipient_rows']>[] = [];
    // At most INSERT_BATCH rows per statement: a statement's parameters are counted in 16 bits on
    // the wire, and one chunk of a file with short lines can hold many thousands of rows.
    const flush = async () => {
      while (pending.length) {
        const rows = pending.splice(0, INSERT_BATCH);
        await db.insertInto('recipient_rows').values(rows).execute();
      }
    };
    for await (const batch of ingest.batches()) {
      for (const row of batch) {
        pending.push({
          file_id: file.id, row_no: row.row, phone: row.phone, variables: JSON.stringify(row.variables), result: row.result,
          send: row.send, problems: JSON.stringify(row.problems), entered: row.entered ?? null,
        });
      }
      if (pending.length >= INSERT_BATCH) await flush();
    }
    await flush();
    // Cut by the multipart limit: the stream ends early and says so.
    if (source.truncated?.()) throw new RecipientsFileError('99937', 'the file is larger than the limit');
  } catch (error) {
    await db.deleteFrom('recipient_files').where('id', '=', file.id).execute();
    if (error instanceof RecipientsFileError) {
      const field = fieldError(source.field, error.code, error.columns?.length ? `${error.message}: ${error.columns.join(', ')}` : error.message);
      throw failFields([field]);
    }
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail('99937');
    throw error;
  }
  const s = ingest.summary;
  const summary: RecipientSummary = {
    fileName: source.fileName, rows: s.totalRows, pass: s.pass, warn: s.warn, fail: s.fail, error: s.error, duplicates: s.duplicates,
    headers: s.headers, encoding: s.encoding, separator: s.separator,
  };
  await db.updateTable('recipient_files').set({ state: 'ready', bytes: s.bytes, headers: JSON.stringify(s.headers), summary: JSON.stringify(summary) })
    .where('id', '=', file.id).execute();
  return { fileId: file.id, summary };
}
