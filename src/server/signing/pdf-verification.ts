// What a PDF someone holds proves, read from the file alone (no trust in what it prints): its
// signature field's byte range and CMS (cms.ts), whether the signature covers every byte, who
// signed, and the RFC 3161 stamp of the signature. The file is an outside input: bounded in size,
// searched without backtracking patterns, and its streams inflated under a cap.
import { inflateSync } from 'node:zlib';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { CMS_OID, parseSignedData, sha256, signatureValue, signedAttribute, verifySigner } from './cms.ts';
import { spkiFingerprint } from './identity.ts';
import { stampFacts, type StampFacts } from './timestamp.ts';

export interface SignatureReading {
  /** The file has a signature field with a byte range and a CMS. */
  signed: boolean;
  /** The CMS signature holds for the bytes of its range. */
  intact: boolean;
  /** The range covers the whole file (nothing was added after signing). */
  wholeFile: boolean;
  /** SHA-256 (hex) of the signer's public key, when the signature holds. */
  signerKey: string | null;
  signerName: string | null;
  /** The signing time the signer stated (its signed attribute). */
  signedAt: Date | null;
  /** The stamp over the signature, when one is attached and sound. */
  stamp: StampFacts | null;
}

const latin1 = (bytes: Buffer) => bytes.toString('latin1');

/** The four numbers after the last `/ByteRange [` in the file, or null. */
function lastByteRange(text: string): [number, number, number, number] | null {
  const at = text.lastIndexOf('/ByteRange');
  if (at < 0) return null;
  const open = text.indexOf('[', at);
  const close = text.indexOf(']', open);
  if (open < 0 || close < 0 || close - open > 80) return null;
  const numbers = text.slice(open + 1, close).trim().split(/\s+/).map(Number);
  if (numbers.length !== 4 || numbers.some((n) => !Number.isSafeInteger(n) || n < 0)) return null;
  return numbers as [number, number, number, number];
}

/**
 * The CMS of a signature field's /Contents: the hex string holds the DER and then the
 * placeholder's zero padding. The DER is cut at the length its own header states — never by
 * trimming zeros from the end, which would also cut a signature whose last byte is 0x00 (one in
 * 256 signatures) — and the rest must be the padding. Null when it is not that.
 */
export function signatureDer(hex: string): Buffer | null {
  if (hex.length % 2 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const bytes = Buffer.from(hex, 'hex');
  // A SEQUENCE with a definite length: short (< 128) or long form in 1 to 4 bytes.
  if (bytes.length < 2 || bytes[0] !== 0x30) return null;
  let header = 2;
  let length = bytes[1];
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count < 1 || count > 4 || bytes.length < 2 + count) return null;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[2 + i];
    header += count;
  }
  const end = header + length;
  if (end > bytes.length) return null;
  for (let i = end; i < bytes.length; i++) if (bytes[i] !== 0) return null;
  return bytes.subarray(0, end);
}

export async function readSignature(file: Buffer): Promise<SignatureReading> {
  const none: SignatureReading = { signed: false, intact: false, wholeFile: false, signerKey: null, signerName: null, signedAt: null, stamp: null };
  const range = lastByteRange(latin1(file));
  if (!range) return none;
  const [a, b, c, d] = range;
  // A range that no longer frames the signature's hex string: the file was signed, then bytes
  // before the signature were changed (an edit that shifted them). Signed, and broken.
  const broken: SignatureReading = { ...none, signed: true };
  if (a !== 0 || b >= c || c + d > file.length || file[b] !== 0x3c /* < */ || file[c - 1] !== 0x3e /* > */) return broken;
  const der = signatureDer(latin1(file.subarray(b + 1, c - 1)));
  if (!der) return broken;
  let data: pkijs.SignedData;
  try {
    data = parseSignedData(der);
  } catch {
    return broken;
  }
  const signedBytes = Buffer.concat([file.subarray(a, b), file.subarray(c, c + d)]);
  const signer = verifySigner(data, sha256(signedBytes));
  const reading: SignatureReading = { signed: true, intact: signer !== null, wholeFile: c + d === file.length, signerKey: null, signerName: null, signedAt: null, stamp: null };
  if (!signer) return reading;
  reading.signerKey = spkiFingerprint(signer);
  reading.signerName = signer.subject.typesAndValues.find((t) => t.type === '2.5.4.3')?.value.valueBlock.value ?? null;
  const time = signedAttribute(data, CMS_OID.signingTime);
  if (time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime) reading.signedAt = time.toDate();
  const token = data.signerInfos[0].unsignedAttrs?.attributes.find((x) => x.type === CMS_OID.timeStampToken)?.values[0];
  if (token) {
    try {
      const facts = stampFacts(new Uint8Array(token.toBER(false)));
      if (facts.imprint.equals(sha256(signatureValue(data)))) reading.stamp = { time: facts.time, serial: facts.serial, authority: facts.authority, policy: facts.policy };
    } catch {
      // An unsound token proves no time: the reading says none.
    }
  }
  return reading;
}

const MAX_INFLATED = 20 * 1024 * 1024;

/**
 * The text a PDF's pages show, line by line, as pdfkit writes it (hex strings in TJ arrays, Latin-1
 * for the standard fonts), from every content stream, inflated when compressed. Enough to say
 * which printed lines of two versions of one document differ.
 */
export function printedLines(file: Buffer): string[] {
  const text = latin1(file);
  const lines: string[] = [];
  let budget = MAX_INFLATED;
  for (let at = text.indexOf('stream'); at >= 0 && budget > 0; at = text.indexOf('stream', at + 6)) {
    if (text.startsWith('endstream', at - 3)) continue;
    // The stream's dictionary within the 400 characters before it (a search back to the start of
    // the file for every "stream" would make a file full of the word quadratic).
    const window = text.slice(Math.max(0, at - 400), at);
    const dictStart = window.lastIndexOf('<<');
    const header = dictStart >= 0 ? window.slice(dictStart) : '';
    let start = at + 6;
    if (text[start] === '\r') start++;
    if (text[start] === '\n') start++;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    let body = file.subarray(start, end);
    if (header.includes('/FlateDecode')) {
      try {
        body = inflateSync(body, { maxOutputLength: Math.min(budget, 8 * 1024 * 1024) });
      } catch {
        at = end;
        continue;
      }
    }
    budget -= body.length;
    const content = latin1(body);
    if (content.includes('TJ') || content.includes('Tj')) {
      for (const op of content.split(/T[Jj]\s*\n?/)) {
        const hexes = [...op.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => Buffer.from(m[1], 'hex').toString('latin1')).join('');
        // Another producer's literal string: between the operation's first '(' and last ')' (found without a pattern that could backtrack).
        const literal = hexes || (op.lastIndexOf(')') > op.indexOf('(') && op.indexOf('(') >= 0 ? op.slice(op.indexOf('(') + 1, op.lastIndexOf(')')) : '');
        if (literal.trim()) lines.push(literal);
      }
    }
    at = end;
  }
  return lines;
}

/** Printed lines that differ between the issued document and the file (at most `limit`). */
export function changedLines(issued: Buffer, file: Buffer, limit = 10): { issued: string; file: string }[] {
  const a = printedLines(issued);
  const b = printedLines(file);
  const changes: { issued: string; file: string }[] = [];
  for (let i = 0; i < Math.max(a.length, b.length) && changes.length < limit; i++) {
    if (a[i] !== b[i]) changes.push({ issued: a[i] ?? '', file: b[i] ?? '' });
  }
  return changes;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** The certificate id a file names in its document information (Subject, inline or an indirect object), or null. */
export function certificateIdOf(file: Buffer): string | null {
  const text = latin1(file);
  const at = text.lastIndexOf('/Subject');
  if (at < 0) return null;
  const value = text.slice(at + 8, at + 96);
  const reference = /^\s*(\d{1,9})\s+(\d{1,5})\s+R/.exec(value);
  if (!reference) return UUID.exec(value)?.[0] ?? null;
  const object = text.lastIndexOf(`\n${reference[1]} ${reference[2]} obj`);
  return object < 0 ? null : (UUID.exec(text.slice(object, object + 120))?.[0] ?? null);
}
