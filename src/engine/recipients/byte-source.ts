// The uploaded bytes as they arrive: counted against the size limit while streaming (a file is
// refused at the first byte past the limit, never buffered first), with progress reports.
import type { Readable } from 'node:stream';
import { tooLarge } from './errors.ts';

export type ByteInput = AsyncIterable<Uint8Array> | Readable;

export interface ByteCounter { bytes: number }

export async function* countedBytes(input: ByteInput, maxBytes: number, counter: ByteCounter, total: number | null, onProgress?: (bytes: number, total: number | null) => void): AsyncGenerator<Uint8Array> {
  for await (const raw of input as AsyncIterable<Uint8Array | string>) {
    // A Readable with an encoding set yields strings: those are bytes in UTF-8 again.
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    if (chunk.length === 0) continue;
    counter.bytes += chunk.length;
    if (counter.bytes > maxBytes) {
      // Stop the producer (a multipart stream) too: nothing more is read.
      if ('destroy' in input && typeof input.destroy === 'function') input.destroy();
      throw tooLarge(maxBytes);
    }
    onProgress?.(counter.bytes, total);
    yield chunk;
  }
}

/** The first `n` bytes (or fewer at the end of the file), and the stream that still yields them. */
export async function peekBytes(source: AsyncGenerator<Uint8Array>, n: number): Promise<{ head: Uint8Array; rest: AsyncGenerator<Uint8Array> }> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < n) {
    const next = await source.next();
    if (next.done) break;
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  async function* rest() {
    if (head.length) yield head;
    yield* source;
  }
  return { head, rest: rest() };
}

/** Every byte in one buffer: only for formats that need the whole file (XLSX directory, XLS), bounded by maxBytes. */
export async function allBytes(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
}
