// An XLSX is a ZIP archive. Before anything is inflated, its central directory (at the end of
// the file) is read and the archive is refused (99932) when the entries declare more than
// maxInflatedBytes in total, or when an entry over 1 MB declares a compression ratio above
// maxCompressionRatio (deflate reaches ~1000:1 on repeated bytes; real sheets stay under ~100:1).
// Declared sizes can lie, so entries are then inflated as streams that count the real bytes and
// stop at the first byte past the declared size or the total cap.
// Encrypted entries, methods other than stored/deflate, ZIP64 and damaged archives are refused.
// A reader that inflates the archive itself (SheetJS) gets it only after checkInflation has
// inflated every entry through these guards, so its real sizes are the declared ones.
import { createInflateRaw } from 'node:zlib';
import { invalidFile } from './errors.ts';

export interface ZipEntry {
  name: string;
  method: 0 | 8;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export interface ZipLimits { maxInflatedBytes: number; maxCompressionRatio: number }

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_LOCATOR = 0x07064b50;
const RATIO_FLOOR_BYTES = 1024 * 1024;
const MAX_ENTRIES = 10_000;

const damaged = (why: string) => invalidFile(`the workbook is damaged or incomplete (${why})`);

/** The archive's entries by name, after the declared-size checks. */
export function readZipDirectory(buf: Uint8Array, limits: ZipLimits): Map<string, ZipEntry> {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf.length < 22) throw damaged('too short');
  let eocd = -1;
  for (let i = buf.length - 22, stop = Math.max(0, buf.length - 22 - 0xffff); i >= stop; i--) {
    if (view.getUint32(i, true) === EOCD) { eocd = i; break; }
  }
  if (eocd < 0) throw damaged('no ZIP directory: the file was cut or is not a workbook');
  if (eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR) throw invalidFile('the workbook uses ZIP64, which a 20 MB campaign file never needs');
  const count = view.getUint16(eocd + 10, true);
  const dirSize = view.getUint32(eocd + 12, true);
  let offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || offset === 0xffffffff) throw invalidFile('the workbook uses ZIP64, which a 20 MB campaign file never needs');
  if (count > MAX_ENTRIES) throw invalidFile(`the workbook has more than ${MAX_ENTRIES} parts`);
  if (offset + dirSize > eocd) throw damaged('the directory points outside the file');
  const entries = new Map<string, ZipEntry>();
  let declared = 0;
  const names = new TextDecoder('utf-8');
  for (let k = 0; k < count; k++) {
    if (offset + 46 > eocd || view.getUint32(offset, true) !== CENTRAL) throw damaged('directory entry');
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    const compressedSize = view.getUint32(offset + 20, true);
    const uncompressedSize = view.getUint32(offset + 24, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const localHeaderOffset = view.getUint32(offset + 42, true);
    const name = names.decode(buf.subarray(offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
    if (flags & 1) throw invalidFile('the workbook is encrypted (protected with a password)');
    if (method !== 0 && method !== 8) throw invalidFile(`the workbook uses ZIP method ${method}`);
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff) throw invalidFile('the workbook uses ZIP64, which a 20 MB campaign file never needs');
    declared += uncompressedSize;
    if (declared > limits.maxInflatedBytes) throw invalidFile(`the workbook would inflate to more than ${limits.maxInflatedBytes} bytes`);
    if (uncompressedSize > RATIO_FLOOR_BYTES && uncompressedSize > compressedSize * limits.maxCompressionRatio) {
      throw invalidFile(`the workbook part ${name} is compressed more than ${limits.maxCompressionRatio}:1 (a zip bomb)`);
    }
    entries.set(name, { name, method, compressedSize, uncompressedSize, localHeaderOffset });
  }
  return entries;
}

/** Counts the inflated bytes of every entry read from one archive against the total cap. */
export class InflateBudget {
  used = 0;
  constructor(readonly max: number) {}
}

const SLICE = 64 * 1024;

/**
 * The entry's bytes as they inflate; stops (99932) at the first byte past its declared size or
 * past the archive's total budget.
 */
export async function* inflateEntry(buf: Uint8Array, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<Uint8Array> {
  const at = entry.localHeaderOffset;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (at + 30 > buf.length || view.getUint32(at, true) !== LOCAL) throw damaged(`part ${entry.name}`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > buf.length) throw damaged(`part ${entry.name} is cut`);
  const data = buf.subarray(start, end);
  let produced = 0;
  const account = (n: number) => {
    produced += n;
    budget.used += n;
    if (produced > entry.uncompressedSize) throw invalidFile(`the workbook part ${entry.name} inflates past its declared size (a zip bomb)`);
    if (budget.used > budget.max) throw invalidFile(`the workbook would inflate to more than ${budget.max} bytes`);
  };
  if (entry.method === 0) {
    for (let k = 0; k < data.length; k += SLICE) {
      const piece = data.subarray(k, Math.min(data.length, k + SLICE));
      account(piece.length);
      yield piece;
    }
    return;
  }
  const inflater = createInflateRaw({ chunkSize: SLICE });
  inflater.end(data);
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      account(chunk.length);
      yield chunk;
    }
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('Z_')) throw damaged(`part ${entry.name} does not inflate`);
    throw error;
  } finally {
    inflater.destroy();
  }
}

/** A small part (workbook, relationships, styles) as text, read through the same guards. */
export async function entryText(buf: Uint8Array, entry: ZipEntry, budget: InflateBudget, maxChars = 16 * 1024 * 1024): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for await (const chunk of inflateEntry(buf, entry, budget)) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length > maxChars) throw invalidFile(`the workbook part ${entry.name} is too large`);
  }
  return text + decoder.decode();
}

/**
 * Inflates every entry as a stream, counting and discarding: refused (99932) at the first byte past
 * an entry's declared size or the archive's total, before a reader that trusts the sizes sees it.
 */
export async function checkInflation(buf: Uint8Array, limits: ZipLimits): Promise<void> {
  const budget = new InflateBudget(limits.maxInflatedBytes);
  for (const entry of readZipDirectory(buf, limits).values()) {
    for await (const chunk of inflateEntry(buf, entry, budget)) void chunk;
  }
}
