// What a help request's attachment may be (spec 5's generic attachments): one of
// uploads.attachmentExtensions, and its first bytes must be what that extension says — a
// renamed program, an image called .pdf or a binary called .txt is refused (99932). The type
// the download is answered with comes from here, never from what the browser declared.
import { constants } from '../../../generated/constants.gen.ts';

const ascii = (text: string) => Buffer.from(text, 'latin1');
const startsWith = (bytes: Uint8Array, signature: Uint8Array | number[]) => Array.from(signature).every((b, i) => bytes[i] === b);

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** An Office Open XML file names its part folder inside the zip (stored names are not compressed). */
const holdsPart = (bytes: Uint8Array, folder: string) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ascii(folder));

/** Text: no NUL in its first 64 KiB and none of the usual binary starts. */
function isText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 65_536);
  if (head.includes(0)) return false;
  return ![ZIP, OLE2, ascii('%PDF'), ascii('MZ'), [0x7f, 0x45, 0x4c, 0x46]].some((s) => startsWith(head, s));
}

const RULES: Record<string, { contentType: string; holds: (bytes: Uint8Array) => boolean }> = {
  pdf: { contentType: 'application/pdf', holds: (b) => startsWith(b, ascii('%PDF-')) },
  doc: { contentType: 'application/msword', holds: (b) => startsWith(b, OLE2) },
  xls: { contentType: 'application/vnd.ms-excel', holds: (b) => startsWith(b, OLE2) },
  ppt: { contentType: 'application/vnd.ms-powerpoint', holds: (b) => startsWith(b, OLE2) },
  docx: { contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', holds: (b) => startsWith(b, ZIP) && holdsPart(b, 'word/') },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', holds: (b) => startsWith(b, ZIP) && holdsPart(b, 'xl/') },
  pptx: { contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', holds: (b) => startsWith(b, ZIP) && holdsPart(b, 'ppt/') },
  rtf: { contentType: 'application/rtf', holds: (b) => startsWith(b, ascii('{\\rtf')) },
  bmp: { contentType: 'image/bmp', holds: (b) => startsWith(b, ascii('BM')) },
  gif: { contentType: 'image/gif', holds: (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')) },
  jpeg: { contentType: 'image/jpeg', holds: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  jpg: { contentType: 'image/jpeg', holds: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  txt: { contentType: 'text/plain; charset=utf-8', holds: isText },
  csv: { contentType: 'text/csv; charset=utf-8', holds: isText },
};

/** The content type of an attachment named `name` with these bytes, or the reason it is refused. */
export function attachmentType(name: string, bytes: Uint8Array): { contentType: string } | { refused: string } {
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(name)?.[1]?.toLowerCase() ?? '';
  const allowed = constants.uploads.attachmentExtensions as readonly string[];
  if (!allowed.includes(extension)) return { refused: `only ${allowed.join(', ')} files` };
  const rule = RULES[extension];
  if (!bytes.length) return { refused: 'the file is empty' };
  if (!rule.holds(bytes)) return { refused: `the file is not a .${extension} file, whatever its name says` };
  return { contentType: rule.contentType };
}

/** Every extension the catalogue allows has a rule here (checked by the unit test). */
export const attachmentRuleExtensions = Object.keys(RULES);
