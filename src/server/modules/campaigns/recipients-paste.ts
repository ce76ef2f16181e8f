// Recipients typed or pasted instead of a file (POST /v1/campaigns/{id}/recipients/paste):
// the numbers are split as the console's counter splits them (core/phone-list.ts), written as a
// number-only CSV, one number a line, and stored through the file's own path: the same row
// validation (pass, warn, fail, error), the same duplicates rule, the same rows and error report,
// so the summary and the launch do not know the difference.
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { splitPastedNumbers } from '../../../core/phone-list.ts';
import type { Database } from '../../../engine/database.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { RecipientSummary } from '../../../generated/types.gen.ts';
import { failFields, fieldError } from '../../errors/api-error.ts';
import { storeRecipients, type RecipientsCampaign } from './recipients-upload.ts';

/** The name the pasted list is stored under (a .csv: the reader knows the format by it). */
export const PASTED_FILE_NAME = 'numeros-pegados.csv';

/** One CSV cell per number, quoted: a pasted value is data, whatever it holds. */
const cell = (value: string) => `"${value.replace(/"/g, '""')}"`;

export async function storePastedRecipients(db: Kysely<Database>, text: string, campaign: RecipientsCampaign, userId: number, now: Date): Promise<RecipientSummary> {
  const numbers = splitPastedNumbers(text);
  if (numbers.length === 0) throw failFields([fieldError('numbers', '99999', 'no number was read')]);
  const max = constants.uploads.pastedNumbersMax;
  if (numbers.length > max) throw failFields([fieldError('numbers', '99906', `${numbers.length} numbers read; at most ${max}`)]);
  const csv = Buffer.from(`${numbers.map(cell).join('\n')}\n`, 'utf8');
  return storeRecipients(db, { fileName: PASTED_FILE_NAME, input: Readable.from([csv]), field: 'numbers' }, campaign, userId, now);
}
