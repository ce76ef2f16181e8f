// What kind of file an upload is: its name must be plain (spec 5: "file names without special
// characters") with a campaign extension, and its first bytes must agree with that extension.
// A renamed file (an XLSX called .csv, a CSV called .xlsx, an HTML table called .xls) is refused
// with the reason, never guessed: the user re-saves it in the right format.
import { constants } from '../../generated/constants.gen.ts';
import { invalidFile } from './errors.ts';
import type { FileFormat } from './types.ts';

/**
 * Letters (any script, with accents and combining marks: "Campaña Bogotá"), digits, space, dot,
 * dash and underscore. Parentheses, commas, slashes, quotes, emoji and control characters are not.
 */
const NAME_CHARS = /^[\p{L}\p{M}\p{Nd} ._-]+$/u;
const NAME_MAX = 255;

/** The format a file name declares, or a 99932 error saying what is wrong with the name. */
export function formatFromName(fileName: string): FileFormat {
  const name = fileName.normalize('NFC');
  if (name.trim() === '') throw invalidFile('the file has no name');
  if (name.length > NAME_MAX) throw invalidFile(`the file name is longer than ${NAME_MAX} characters`);
  if (!NAME_CHARS.test(name)) {
    const bad = [...new Set([...name].filter((c) => !NAME_CHARS.test(c)))].map((c) => JSON.stringify(c)).join(' ');
    throw invalidFile(`the file name has characters that are not allowed: ${bad} (use letters, digits, spaces, dots, dashes and underscores)`);
  }
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (!(constants.uploads.campaignFileExtensions as readonly string[]).includes(extension)) {
    throw invalidFile(`the file must be ${constants.uploads.campaignFileExtensions.join(', ')}${extension ? `, not .${extension}` : ''}`);
  }
  return extension as FileFormat;
}

export type ContentKind = 'zip' | 'ole2' | 'pdf' | 'image' | 'text-or-unknown';

/** What the first bytes say the content is. */
export function sniffContent(head: Uint8Array): ContentKind {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06)) return 'zip';
  if (starts(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return 'ole2';
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47) || starts(0xff, 0xd8, 0xff) || starts(0x47, 0x49, 0x46, 0x38)) return 'image';
  return 'text-or-unknown';
}

const KIND_NAMES: Record<ContentKind, string> = { zip: 'an XLSX/ZIP file', ole2: 'an XLS (Excel 97-2003) file', pdf: 'a PDF', image: 'an image', 'text-or-unknown': 'text' };

/** Refuses content that does not match the declared format (99932 with the reason). */
export function checkContent(format: FileFormat, head: Uint8Array): void {
  const kind = sniffContent(head);
  const expected: Record<FileFormat, ContentKind> = { csv: 'text-or-unknown', xlsx: 'zip', xls: 'ole2' };
  if (kind === expected[format]) return;
  throw invalidFile(`the file is called .${format} but its content is ${KIND_NAMES[kind]}`);
}
