// A minimal streaming XML tag scanner for the parts of an XLSX (SpreadsheetML is machine-written,
// namespaced, without DTDs). It hands each start and end tag to a handler and collects the text
// of elements the handler asks for, capped at a length (the rest of a huge text is dropped and
// flagged, never accumulated). Entities and OOXML _xHHHH_ escapes are decoded by `xmlText`.
import { invalidFile } from './errors.ts';

export interface XmlHandler {
  /** `s` holds the tag between `lt` ('<') and `gt` ('>'); `name` has no namespace prefix. */
  open(name: string, s: string, lt: number, gt: number, selfClosing: boolean): void;
  close(name: string): void;
}

const MAX_TAG = 1024 * 1024;

export class XmlScanner {
  private carry = '';
  /** Set by the handler: collect the text until it is turned off. */
  capture = false;
  text = '';
  textTooLong = false;

  constructor(private readonly handler: XmlHandler, private readonly maxText: number) {}

  push(chunk: string): void {
    const s = this.carry.length ? this.carry + chunk : chunk;
    this.carry = '';
    const n = s.length;
    let i = 0;
    while (i < n) {
      const lt = s.indexOf('<', i);
      if (lt < 0) { if (this.capture) this.addText(s, i, n); return; }
      if (lt > i && this.capture) this.addText(s, i, lt);
      const c1 = s.charCodeAt(lt + 1);
      if (c1 === 33 /* ! */) {
        // A comment or CDATA section: its end marker, not the first '>'.
        const cdata = s.startsWith('<![CDATA[', lt);
        const close = cdata ? s.indexOf(']]>', lt) : s.startsWith('<!--', lt) ? s.indexOf('-->', lt) : s.indexOf('>', lt);
        if (close < 0) { this.keep(s, lt); return; }
        if (cdata && this.capture) this.addRaw(s.slice(lt + 9, close));
        i = close + (cdata || s.startsWith('<!--', lt) ? 3 : 1);
        continue;
      }
      const gt = s.indexOf('>', lt + 1);
      if (gt < 0) { this.keep(s, lt); return; }
      if (c1 === 47 /* / */) {
        this.handler.close(localName(s, lt + 2, gt));
      } else if (c1 !== 63 /* ? */) {
        const selfClosing = s.charCodeAt(gt - 1) === 47;
        this.handler.open(localName(s, lt + 1, selfClosing ? gt - 1 : gt), s, lt, gt, selfClosing);
      }
      i = gt + 1;
    }
  }

  /** The collected text so far (decoded) and a reset. */
  takeText(): string {
    const t = this.text;
    this.text = '';
    return t.indexOf('&') >= 0 || t.indexOf('_x') >= 0 ? xmlText(t) : t;
  }

  private keep(s: string, from: number): void {
    if (s.length - from > MAX_TAG) throw invalidFile('the workbook holds a malformed XML tag');
    this.carry = s.slice(from);
  }

  private addText(s: string, from: number, to: number): void {
    if (this.text.length > this.maxText) { this.textTooLong = true; return; }
    this.text += s.slice(from, Math.min(to, from + this.maxText + 16));
    if (to - from > this.maxText) this.textTooLong = true;
  }

  private addRaw(t: string): void {
    // CDATA is literal: escape '&' so takeText does not decode it.
    this.addText(t.replaceAll('&', '&amp;'), 0, t.length);
  }
}

function localName(s: string, from: number, to: number): string {
  let end = from;
  while (end < to) {
    const c = s.charCodeAt(end);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47) break;
    end++;
  }
  const name = s.slice(from, end);
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(colon + 1) : name;
}

/** An attribute's raw value inside the tag s[lt..gt], or null. */
export function attr(s: string, lt: number, gt: number, name: string): string | null {
  let at = lt;
  for (;;) {
    at = s.indexOf(name, at + 1);
    if (at < 0 || at > gt) return null;
    const before = s.charCodeAt(at - 1);
    const eq = at + name.length;
    if ((before === 32 || before === 9 || before === 10 || before === 13) && s.charCodeAt(eq) === 61 /* = */) {
      const quote = s[eq + 1];
      const close = s.indexOf(quote, eq + 2);
      if (close < 0 || close > gt) return null;
      const value = s.slice(eq + 2, close);
      return value.indexOf('&') >= 0 ? xmlText(value) : value;
    }
  }
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML entities and the _xHHHH_ escapes Excel writes for control characters. */
export function xmlText(t: string): string {
  let out = t.indexOf('&') >= 0
    ? t.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
      e[0] === '#' ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : NAMED[e])
    : t;
  if (out.indexOf('_x') >= 0) out = out.replace(/_x([0-9A-Fa-f]{4})_/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return out;
}
