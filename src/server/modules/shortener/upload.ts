// A file of URLs: one multipart field `file` (CSV in UTF-8 or Latin-1 with comma or semicolon,
// XLS or XLSX; constants.uploads.campaignFileBytes at most: 99937), URLs in the first column. A
// first row that is not a URL is a header. At most MAX_ROWS rows (99932). The type comes from
// the bytes, never from the name.
import type { FastifyRequest } from 'fastify';
import { csvFirstColumn, decodeTextFile } from '../../../core/phone-list.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { sniffSpreadsheet, spreadsheetFirstColumn } from '../blockList/spreadsheet.ts';

export const MAX_ROWS = 10_000;

export async function readUrlColumn(request: FastifyRequest): Promise<{ position: number; value: string }[]> {
  if (!request.isMultipart()) throw fail('99932');
  let bytes: Buffer;
  try {
    const part = await request.file({ limits: { fileSize: constants.uploads.campaignFileBytes, files: 1, fields: 5 } });
    if (!part || part.fieldname !== 'file') throw fail('99932');
    bytes = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail('99937');
    throw error;
  }
  if (bytes.length === 0) throw fail('99932');
  const kind = sniffSpreadsheet(bytes);
  let values: { position: number; value: string }[] | null;
  if (kind) values = spreadsheetFirstColumn(bytes, kind, MAX_ROWS + 1);
  else {
    const decoded = decodeTextFile(bytes);
    values = decoded ? csvFirstColumn(decoded.text, undefined, MAX_ROWS + 2) : null;
  }
  if (!values) throw fail('99932');
  values = values.filter((v) => v.value.trim() !== '');
  if (values.length && !/^\s*[a-z][a-z0-9+.-]*:/i.test(values[0].value) && !/[./]/.test(values[0].value)) values = values.slice(1);
  if (values.length > MAX_ROWS) throw failFields([fieldError('file', '99932', `${MAX_ROWS} rows at most`)]);
  if (values.length === 0) throw failFields([fieldError('file', '99932', 'no URLs')]);
  return values;
}
