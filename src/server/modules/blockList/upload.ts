// Reading a block-list upload: one multipart field `file`, at most
// constants.uploads.campaignFileBytes (20 MB: 99937, refused before parsing). The type is decided
// by the bytes: a ZIP (XLSX) or OLE2 (XLS) signature is a spreadsheet, otherwise the bytes must be
// text (UTF-8, UTF-16 or Windows-1252, as the recipients file) read as CSV with comma or semicolon.
// Anything else is an invalid file (99932). The intake is the one every upload uses (files/intake.ts).
import type { FastifyRequest } from 'fastify';
import { looksLikeHeader } from '../../../core/phone-list.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { failFields, fieldError } from '../../errors/api-error.ts';
import { readFirstColumn } from '../../files/first-column.ts';

/** The first-column values of the uploaded file (header row dropped), with their row numbers. */
export async function readNumberColumn(request: FastifyRequest): Promise<{ position: number; value: string }[]> {
  const maxRows = constants.blockList.maxFileRows;
  let values = await readFirstColumn(request, constants.uploads.campaignFileBytes, maxRows + 1);
  if (values.length && looksLikeHeader(values[0].value)) values = values.slice(1);
  if (values.length > maxRows) throw failFields([fieldError('file', '99932', `${maxRows} rows at most`)]);
  return values;
}
