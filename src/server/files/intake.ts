// Every upload's intake: campaign recipients, the block list, the shortener's file and
// pictures come in through here, so each is refused the same way before it costs anything.
//  - Not multipart, no `file` field: 99932.
//  - Too large: 99937 from the declared Content-Length before a byte is read. A body without a
//    declared length (chunked) is first spooled to a temporary file, counted, and refused at the
//    first byte past the limit, before any of it is parsed; the parser then reads the spooled file.
//    A 25 MB CSV used to be parsed for 19 s (and its rows stored) before its 413.
//  - Text is decoded by the recipients' decoder (UTF-8, UTF-16 with or without BOM, Windows-1252);
//    binary content named as text is refused, as the recipients file refuses it.
//  - An XLSX is a ZIP: its directory is checked by the recipients' zip guard before anything is
//    inflated, and each entry is then inflated as a counted stream, so a zip bomb is refused as one,
//    naming it (99932), whatever sizes it forges. The recipients' and training files get the same
//    guard from their streaming reader (engine/recipients/xlsx-stream.ts).
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { invalidFile, RecipientsFileError, tooLarge, StreamingTextDecoder, checkInflation, type ZipLimits } from '../../engine/recipients/index.ts';
import { fail, failFields, fieldError } from '../errors/api-error.ts';
import { unstorableReason } from '../../core/storable-text.ts';

/** Room for the multipart envelope around the file (boundaries, part headers, small fields). */
const ENVELOPE_BYTES = 64 * 1024;

export interface Upload {
  fileName: string;
  mimeType: string;
  /** The file's bytes as they arrive, counted: the first byte past the limit throws 99937. */
  bytes: AsyncGenerator<Uint8Array>;
  /** The request's declared length (file plus envelope), when it says one. */
  declaredBytes: number | null;
}

function declaredLength(request: FastifyRequest): number | null {
  const header = request.headers['content-length'];
  const value = header === undefined ? NaN : Number(header);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

/** Opens the request's `file` part (at most `maxBytes`), refusing what cannot be a good upload first. */
export async function openUpload(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) throw fail('99932');
  const declared = declaredLength(request);
  if (declared !== null && declared > maxBytes + ENVELOPE_BYTES) throw tooLargeError(maxBytes);
  let part: MultipartFile | undefined;
  try {
    // One byte more than the limit, so our counter sees the overflow; past it busboy discards the
    // rest without an error (destroying the part instead would fail the whole request).
    part = await request.file({ limits: { fileSize: maxBytes + 1, files: 1, fields: 5 }, throwFileSizeLimit: false });
  } catch (error) {
    throw asUploadError(error, maxBytes);
  }
  if (!part || part.fieldname !== 'file') throw fail('99932');
  // The file's name is stored with the upload: NUL (PostgreSQL refuses it), broken UTF-16, line
  // breaks or bidirectional overrides in it are a bad field (core/storable-text.ts), not a 500.
  const badName = unstorableReason(part.filename, true);
  if (badName) throw failFields([fieldError('file', '99931', `the file's name: ${badName}`)]);
  if (declared !== null) return { fileName: part.filename, mimeType: part.mimetype, bytes: limited(part.file, maxBytes), declaredBytes: declared };
  return { fileName: part.filename, mimeType: part.mimetype, bytes: await spooled(part.file, maxBytes), declaredBytes: null };
}

// busboy (under @fastify/multipart) reports a body cut short or a malformed part with plain Errors
// ("Unexpected end of multipart data", "file terminated early…", "Malformed part header"): the
// upload is then a damaged file (99932), not a failure of ours (m1).
const MULTIPART_DAMAGE = /unexpected end of multipart data|terminated early|malformed/i;

/** The part's bytes, a damaged multipart body refused as an invalid file. */
async function* partBytes(file: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of file) yield chunk;
  } catch (error) {
    throw damagedBody(error) ?? error;
  }
}

function damagedBody(error: unknown): RecipientsFileError | null {
  const coded = (error as { code?: unknown }).code !== undefined;
  return error instanceof Error && !coded && MULTIPART_DAMAGE.test(error.message) ? invalidFile(`the multipart body is damaged: ${error.message}`) : null;
}

/** The file's bytes up to the limit; the first byte past it throws 99937 (what follows is left to busboy to discard). */
async function* limited(file: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  let over = false;
  for await (const chunk of partBytes(file)) {
    if (over) continue;
    bytes += chunk.length;
    if (bytes > maxBytes) { over = true; continue; }
    yield chunk;
  }
  if (over) throw tooLarge(maxBytes);
}

/** Writes the file to a temporary file, counting (refused at the first byte past the limit), then yields it from there and removes it. */
async function spooled(file: AsyncIterable<Uint8Array>, maxBytes: number): Promise<AsyncGenerator<Uint8Array>> {
  const dir = await mkdtemp(join(tmpdir(), 'colibri-upload-'));
  const path = join(dir, 'file');
  let bytes = 0;
  try {
    const out = createWriteStream(path);
    try {
      for await (const chunk of partBytes(file)) {
        bytes += chunk.length;
        // Past the limit nothing more is written, let alone parsed (busboy has cut the part already).
        if (bytes > maxBytes) continue;
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
    } finally {
      out.end();
      await finished(out);
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    // The stream cut short after the limit was passed is the same refusal.
    throw bytes > maxBytes ? tooLargeError(maxBytes) : asUploadError(error, maxBytes);
  }
  if (bytes > maxBytes) {
    await rm(dir, { recursive: true, force: true });
    throw tooLargeError(maxBytes);
  }
  return (async function* () {
    try {
      for await (const chunk of createReadStream(path)) yield chunk as Buffer;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
}

/** The whole file (small uploads: the block list, the shortener's file, pictures), refused early when too large. */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<{ fileName: string; mimeType: string; bytes: Buffer }> {
  const upload = await openUpload(request, maxBytes);
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of upload.bytes) chunks.push(chunk);
  } catch (error) {
    throw asUploadError(error, maxBytes);
  }
  return { fileName: upload.fileName, mimeType: upload.mimeType, bytes: Buffer.concat(chunks) };
}

const tooLargeError = (maxBytes: number) => failFields([fieldError('file', '99937', `the file is larger than ${maxBytes} bytes`)]);

/** A refusal of the intake as the catalogue says it. */
// Only what the upload knows better than the error handler: the reader's own refusals, and the
// limit to name when the file is too large. Multipart protocol errors (FST_*) go on to the one
// error handler (http/error-handler.ts), which maps them to 99932.
export function asUploadError(error: unknown, maxBytes: number): unknown {
  error = damagedBody(error) ?? error;
  if (error instanceof RecipientsFileError) return failFields([fieldError('file', error.code, error.message)]);
  if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return tooLargeError(maxBytes);
  return error;
}

/** A text upload's characters (UTF-8, UTF-16, Windows-1252), or null when its content is not text. */
export function decodeUploadText(bytes: Uint8Array): string | null {
  try {
    return new StreamingTextDecoder().decode(bytes, true);
  } catch (error) {
    if (error instanceof RecipientsFileError) return null;
    throw error;
  }
}

/**
 * Refuses an XLSX that is a zip bomb (declared sizes, entry count, ratio, then the real inflated
 * sizes counted as each entry streams) or a damaged archive, naming why (99932).
 */
export async function checkWorkbookArchive(bytes: Uint8Array, limits: ZipLimits): Promise<void> {
  try {
    await checkInflation(bytes, limits);
  } catch (error) {
    if (error instanceof RecipientsFileError) throw failFields([fieldError('file', '99932', error.message)]);
    throw error;
  }
}
