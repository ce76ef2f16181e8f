// A file of URLs: one multipart field `file` (CSV in UTF-8, UTF-16 or Latin-1 with comma or semicolon,
// XLS or XLSX; constants.uploads.campaignFileBytes at most: 99937), URLs in the first column. A
// first row that is not a URL is a header. At most MAX_ROWS rows (99932). The type comes from
// the bytes, never from the name.
import type { FastifyRequest } from 'fastify';
import { constants } from '../../../generated/constants.gen.ts';
import { failFields, fieldError } from '../../errors/api-error.ts';
import { readFirstColumn } from '../../files/first-column.ts';

export const MAX_ROWS = 10_000;

export async function readUrlColumn(request: FastifyRequest): Promise<{ position: number; value: string }[]> {
  let values = await readFirstColumn(request, constants.uploads.campaignFileBytes, MAX_ROWS + 1);
  values = values.filter((v) => v.value.trim() !== '');
  if (values.length && !/^\s*[a-z][a-z0-9+.-]*:/i.test(values[0].value) && !/[./]/.test(values[0].value)) values = values.slice(1);
  if (values.length > MAX_ROWS) throw failFields([fieldError('file', '99932', `${MAX_ROWS} rows at most`)]);
  if (values.length === 0) throw failFields([fieldError('file', '99932', 'no URLs')]);
  return values;
}
