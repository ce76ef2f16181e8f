// A certificate's PDF is signed as a whole (PDF signature over every byte but the signature,
// time-stamped by the sandbox's RFC 3161 stand-in) and kept as issued; the public verification
// takes the file itself and says authentic, altered (with the printed lines that changed),
// foreign or unsigned, reading the file's own signature with node:crypto, not what it prints.
import { deflateSync, inflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { pdfBytes } from '../../src/server/files/pdf-text.ts';
import { selfSignedIdentity } from '../../src/server/signing/identity.ts';
import { addSignaturePlaceholder, signPdf } from '../../src/server/signing/pdf-signature.ts';
import { readSignature } from '../../src/server/signing/pdf-verification.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';
import { demoCompanyId } from './messaging-fixtures.ts';
import { readPdf } from './pdf-reader.ts';
import { insertMessages, newChannel } from './report-fixtures.ts';
import { addDays, calendarDateOf, formatYmd } from '../../src/core/bogota-time.ts';

const h = fileHarness();
const tokens = signedIn(h, 'develop');
const PHONE = '+573157772201';
let id: string;
let issued: Buffer;

async function download(certificate: string): Promise<Buffer> {
  const link = await h.op('certificates.link', { token: tokens.develop, params: { id: certificate } });
  const url = new URL(link.json().url, 'http://localhost');
  const file = await h.op('certificates.file', { params: { id: certificate }, query: { expires: url.searchParams.get('expires')!, signature: url.searchParams.get('signature')! } });
  expect(file.statusCode, file.body).toBe(200);
  return file.rawPayload;
}

const verify = (bytes: Buffer, name = 'certificado.pdf') => h.op('certificates.verifyFile', multipart('file', name, 'application/pdf', bytes));

/** The file with one printed text changed inside its (compressed) page content, as an editor would. */
function editPrinted(file: Buffer, from: string, to: string): Buffer {
  const hex = (s: string) => Buffer.from(s, 'latin1').toString('hex');
  const text = file.toString('latin1');
  for (let at = text.indexOf('stream\n'); at >= 0; at = text.indexOf('stream\n', at + 7)) {
    const start = at + 7;
    const end = text.indexOf('\nendstream', start);
    let body: string;
    try { body = inflateSync(file.subarray(start, end)).toString('latin1'); } catch { continue; }
    // pdfkit writes text as hex strings (lower case).
    if (!body.includes(hex(from))) continue;
    const edited = body.replace(hex(from), hex(to));
    return Buffer.concat([file.subarray(0, start), deflateSync(Buffer.from(edited, 'latin1')), file.subarray(end)]);
  }
  throw new Error(`"${from}" is not printed in the file`);
}

beforeAll(async () => {
  const company = await demoCompanyId(h);
  const account = await newChannel(h, company, 'Firmas', 'sms');
  const yesterday = formatYmd(addDays(calendarDateOf(h.clock.now), -1));
  await insertMessages(h, company, [{ account, day: yesterday, hour: 9, state: 'delivered', status: 3, to: PHONE }]);
  const made = await h.op('certificates.getCertificate', { token: tokens.develop, body: { phone: PHONE, DateStart: yesterday, DateEnd: yesterday } });
  expect(made.statusCode, made.body).toBe(200);
  id = made.json().id;
  issued = await download(id);
}, 180_000);

describe("a certificate's PDF", () => {
  it('is signed over every byte, time-stamped, names the issuer, and is the same file on every download', async () => {
    const reading = await readSignature(issued);
    expect(reading).toMatchObject({ signed: true, intact: true, wholeFile: true });
    expect(reading.signerName).toContain('Colibri Mensajería S.A.S.');
    expect(reading.stamp?.policy).toBe('1.3.6.1.4.1.32473.3161.1');
    expect(Math.abs(reading.stamp!.time.getTime() - Date.now())).toBeLessThan(120_000);
    expect((await download(id)).equals(issued)).toBe(true);
    // A number certificate has no certified rows to export.
    expect((await h.op('certificates.link', { token: tokens.develop, params: { id } })).json().rowsUrl).toBeNull();
    const { text } = await readPdf(issued);
    // The issuer's legal name and NIT, four-digit years, page numbers, the way to check it.
    expect(text).toMatch(/Colibri Mensajería S\.A\.S\. \(demostración\) \(NIT 900000000-0\)/);
    expect(text).toMatch(/\d{2}\/\d{2}\/20\d{2}/);
    expect(text).toMatch(/Página 1 de \d+/);
    expect(text).toContain('firmado digitalmente y sellado en el tiempo');
    expect(text).toContain('Éxito (3)');
  });

  it('verifies as authentic when the file is the one issued', async () => {
    const answer = await verify(issued);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ check: 'authentic', findings: ['stamped'], certificateId: id, changes: [] });
    expect(answer.json().subject).toContain(PHONE);
    expect(answer.json().stampedAt).not.toBeNull();
  });

  it('says altered, and which printed line changed, when the printed number is edited', async () => {
    const edited = editPrinted(issued, PHONE.slice(-4), PHONE.slice(-4, -1) + '9');
    const answer = (await verify(edited)).json();
    expect(answer).toMatchObject({ check: 'altered', certificateId: id });
    expect(answer.findings).toContain('signatureBroken');
    expect(answer.changes.some((c: string) => c.includes('2201') && c.includes('2209'))).toBe(true);
    expect((await readSignature(edited)).intact).toBe(false);
  });

  it('says altered when content is added after the signature (an incremental update)', async () => {
    const appended = Buffer.concat([issued, Buffer.from('\n1 0 obj\n<< /Type /Annot /Contents (Pagado) >>\nendobj\n%%EOF\n')]);
    const answer = (await verify(appended)).json();
    expect(answer).toMatchObject({ check: 'altered', findings: ['addedAfterSigning', 'stamped'] });
  });

  it('says foreign for a file signed by another key or naming no certificate of ours, and unsigned for a file without a signature', async () => {
    const stranger = await selfSignedIdentity(Buffer.alloc(32, 3), { legalName: 'Falsificadora S.A.S.', nit: '800000000-1' }, 'documents');
    const forge = async (subject: string, sign: boolean) => {
      const doc = new PDFDocument({ info: { Subject: subject } });
      const done = pdfBytes(doc);
      doc.text(`Certificado ${subject} · ${PHONE}`);
      if (sign) addSignaturePlaceholder(doc, { reason: 'x', name: 'x', location: 'x', contactInfo: 'x', signingTime: new Date() });
      doc.end();
      return sign ? signPdf(await done, stranger, null, new Date()) : done;
    };
    expect((await verify(await forge(id, true))).json()).toMatchObject({ check: 'foreign', findings: ['otherSigner'], certificateId: id });
    expect((await verify(await forge('00000000-0000-4000-8000-000000000000', true))).json()).toMatchObject({ check: 'foreign', findings: ['unknownCertificate'] });
    expect((await verify(await forge('sin número', true))).json()).toMatchObject({ check: 'foreign', findings: ['noCertificateId'], certificateId: null });
    expect((await verify(await forge(id, false))).json()).toMatchObject({ check: 'unsigned', findings: ['noSignature'] });
  });

  it('answers hostile files without stalling: a long zero-padded signature that is not one, and a file full of streams', async () => {
    // A signature field whose /Contents is 400 KB of zeros ending in a digit that is not padding.
    const head = '%PDF-1.7\n1 0 obj << /Subject (' + id + ') >> endobj\n/ByteRange [0 ';
    const contents = '<' + '0'.repeat(400_000) + '1>';
    const b = head.length + 40;
    const prefix = (head + `${b} ${b + contents.length} 10]`).padEnd(b, ' ');
    const zeros = Buffer.from(prefix + contents + '\n%%EOF\n', 'latin1');
    expect((await verify(zeros)).json()).toMatchObject({ check: 'altered', findings: ['signatureBroken'], certificateId: id });
    // Half a million "stream" words with no dictionary before them.
    const streams = Buffer.from('%PDF-1.7\n' + 'stream\n'.repeat(500_000), 'latin1');
    expect((await verify(streams)).json()).toMatchObject({ check: 'unsigned' });
  });

  it('refuses a file that is not a PDF (99932) and keeps a PDF for a certificate issued before PDFs were signed', async () => {
    const notPdf = await verify(Buffer.from('nombre,telefono\nAna,3001234567\n'), 'certificado.csv');
    expect(notPdf.statusCode).toBe(415);
    expect(notPdf.json().code).toBe('99932');
    await h.db.updateTable('certificates').set({ pdf: null }).where('id', '=', id).execute();
    const first = await download(id);
    expect((await readSignature(first)).intact).toBe(true);
    expect((await download(id)).equals(first)).toBe(true);
    expect((await verify(first)).json().check).toBe('authentic');
  });
});
