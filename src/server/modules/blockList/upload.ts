// Reading a block-list upload: one multipart field `file`, at most
// constants.uploads.campaignFileBytes (20 MB: 99937). The type is decided by the bytes: a ZIP
// (XLSX) or OLE2 (XLS) signature is a spreadsheet, otherwise the bytes must be text (UTF-8 or
// Latin-1, detected) read as CSV with comma or semicolon. Anything else is an invalid file (99932).
import type { FastifyRequest } from 'fastify';
import { csvFirstColumn, decodeTextFile, looksLikeHeader } from '../../../core/phone-list.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { sniffSpreadsheet, spreadsheetFirstColumn } from './spreadsheet.ts';

async function readFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw fail('99932');
  let part;
  try {
    part = await request.file({ limits: { fileSize: constants.uploads.campaignFileBytes, files: 1, fields: 5 } });
    if (!part || part.fieldname !== 'file') throw fail('99932');
    return await part.toBuffer();
  } catch (error) {
    // Past the limit the stream is cut: the answer is "too large", not "invalid".
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail('99937');
    throw error;
  }
}

/** The first-column values of the uploaded file (header row dropped), with their row numbers. */
export async function readNumberColumn(request: FastifyRequest): Promise<{ position: number; value: string }[]> {
  const bytes = await readFile(request);
  if (bytes.length === 0) throw fail('99932');
  const maxRows = constants.blockList.maxFileRows;
  const kind = sniffSpreadsheet(bytes);
  let values: { position: number; value: string }[] | null;
  if (kind) {
    values = spreadsheetFirstColumn(bytes, kind, maxRows + 1);
  } else {
    const decoded = decodeTextFile(bytes);
    values = decoded ? csvFirstColumn(decoded.text, undefined, maxRows + 2) : null;
  }
  if (!values) throw fail('99932');
  if (values.length && looksLikeHeader(values[0].value)) values = values.slice(1);
  if (values.length > maxRows) throw failFields([fieldError('file', '99932', `${maxRows} rows at most`)]);
  return values;
}
