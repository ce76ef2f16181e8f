// The text encoding of a streamed CSV, decided on the way (what Excel and other tools write):
//   - a BOM says UTF-8, UTF-16 LE or UTF-16 BE;
//   - UTF-16 without a BOM is recognised by its zero bytes (ASCII-heavy text);
//   - otherwise the text is UTF-8 while every chunk is valid UTF-8 (the decision is taken at the
//     first non-ASCII chunk); a file that is not valid UTF-8 before any valid non-ASCII byte is
//     Windows-1252 from the start (Excel "CSV" on Windows: "Bogotá", "Ñoño");
//   - a file valid UTF-8 at first and invalid later cannot be decided: it is read as
//     Windows-1252 from that chunk on and marked uncertain (rows from there carry a warn).
// Zero bytes or control characters in a file without a UTF-16 signature mean it is not text (99932).
import { invalidFile } from './errors.ts';
import type { TextEncodingName } from './types.ts';

type State = 'ascii' | 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

/** Bytes looked at before deciding a signature (BOM, UTF-16 zero pattern, binary). */
const SNIFF_BYTES = 512;

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes at the end of a chunk that start a UTF-8 sequence the chunk does not finish. */
function incompleteTail(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back];
    if (b < 0x80) return 0;
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return need > back ? back : 0;
    }
  }
  return 0;
}

function guessUtf16(head: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const pairs = Math.min(head.length >> 1, 2048);
  if (pairs < 2) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs; i++) {
    if (head[2 * i] === 0) evenZeros++;
    if (head[2 * i + 1] === 0) oddZeros++;
  }
  if (oddZeros > pairs * 0.4 && evenZeros === 0) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros === 0) return 'utf-16be';
  return null;
}

/** Control characters no text file holds (tab, CR, LF, form feed and Ctrl-Z end-of-file are fine). */
function looksBinary(head: Uint8Array): boolean {
  const n = Math.min(head.length, 8192);
  for (let i = 0; i < n; i++) {
    const b = head[i];
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1a) return true;
  }
  return false;
}

export class StreamingTextDecoder {
  private state: State = 'ascii';
  private tail: Uint8Array | null = null;
  private other: TextDecoder | null = null;
  private started = false;
  private head: Uint8Array | null = null;
  /** Became Windows-1252 after valid non-ASCII UTF-8. */
  uncertain = false;

  get encoding(): TextEncodingName {
    return this.state === 'ascii' ? 'utf-8' : this.state;
  }

  /** The text of the next chunk (possibly ''); `final` flushes what is pending. */
  decode(chunk: Uint8Array, final = false): string {
    let bytes = chunk;
    if (!this.started) {
      // The signature needs the first bytes together, whatever the chunk sizes.
      this.head = this.head ? Buffer.concat([this.head, chunk]) : chunk;
      if (this.head.length < SNIFF_BYTES && !final) return '';
      this.started = true;
      bytes = this.start(this.head);
      this.head = null;
    }
    if (this.other) return this.other.decode(bytes, { stream: !final });
    if (this.tail) {
      const joined = new Uint8Array(this.tail.length + bytes.length);
      joined.set(this.tail);
      joined.set(bytes, this.tail.length);
      bytes = joined;
      this.tail = null;
    }
    const keep = final ? 0 : incompleteTail(bytes);
    const whole = keep ? bytes.subarray(0, bytes.length - keep) : bytes;
    if (keep) this.tail = bytes.slice(bytes.length - keep);
    try {
      const text = fatalUtf8.decode(whole);
      if (this.state === 'ascii' && text.length !== whole.length) this.state = 'utf-8';
      return text;
    } catch {
      this.uncertain = this.state === 'utf-8';
      this.state = 'windows-1252';
      this.other = new TextDecoder('windows-1252');
      const rest = this.tail;
      this.tail = null;
      const text = this.other.decode(whole, { stream: true });
      return rest ? text + this.other.decode(rest, { stream: !final }) : text;
    }
  }

  /** Reads the BOM or signature of the first chunk; answers the bytes left to decode. */
  private start(head: Uint8Array): Uint8Array {
    if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
      this.state = 'utf-8';
      return head.subarray(3);
    }
    if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
      this.state = head[0] === 0xff ? 'utf-16le' : 'utf-16be';
      // The decoder drops the BOM itself.
      this.other = new TextDecoder(this.state);
      return head;
    }
    const utf16 = guessUtf16(head);
    if (utf16) {
      this.state = utf16;
      this.other = new TextDecoder(utf16);
      return head;
    }
    if (looksBinary(head)) throw invalidFile('the file is called .csv but its content is not text');
    return head;
  }
}
