// A certificate's PDF (pdfkit): what the statement says, in Spanish, then the statement's SHA-256,
// the Ed25519 signature, the key, a QR code to the verification page and page numbers; the signed
// statement itself rides along as an attached file (certificate.json). The document as a whole is
// then signed (signing/pdf-signature.ts: a PDF signature any reader checks, time-stamped), so
// every printed fact is covered, not only the attachment. Made once, at issue, and kept.
import PDFDocument from 'pdfkit';
import qrcode from 'qrcode-generator';
import { constants } from '../../../generated/constants.gen.ts';
import { field, heading, pdfBytes, printable, type Doc } from '../../files/pdf-text.ts';
import { wordsFor, type DocumentKey } from '../../i18n/document-words.ts';
import type { DocumentSigning } from '../../signing/index.ts';
import { addSignaturePlaceholder, signPdf } from '../../signing/pdf-signature.ts';

// Issued in Spanish whatever the reader's language: the company's evidence and its accounting
// documents are Colombian documents (as the DIAN's invoices are).
const es = wordsFor('es');
const text = es.text;
import type { CertifiedMessage, Statement } from './statements.ts';

export interface SignedStatement { statement: Statement; canonical: string; sha256: string; signature: string; keyId: string; publicKey: string; verifyUrl: string }

const TIME_ZONE = constants.sendWindow.timeZone;
// One formatter for the module: a certificate prints hundreds of instants, with four-digit years.
const INSTANT = new Intl.DateTimeFormat('es-CO', { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

// The engine's notes on a message's events, in the certificate's words (an unknown note is left
// out rather than printed in the engine's English). A held message's note is its hold reason.
const EVENT_NOTES: Record<string, DocumentKey> = {
  receipt: 'certificate.event.receipt',
  'credits reserved at the claim': 'certificate.event.creditsAtClaim',
  'in doubt: its receipt names it': 'certificate.event.confirmedByReceipt',
  'fallback to SMS': 'certificate.event.fallbackToSms',
};
const eventNote = (detail: string | null) => {
  if (!detail) return null;
  if (EVENT_NOTES[detail]) return text(EVENT_NOTES[detail]);
  const held = es.enumLabel('hold-reason', detail);
  return held !== detail ? text('certificate.event.held', { reason: held }) : null;
};
/** A status code by its name in the SMS states vocabulary ("Éxito (3)"), never bare. */
const statusWords = (code: number) => `${es.enumLabel('sms-state', String(code))} (${code})`;
const when = (iso: string | null) => (iso === null ? text('certificate.none') : `${INSTANT.format(new Date(iso))} (${TIME_ZONE})`);

// Characters the standard fonts cannot write print as "?" (files/pdf-text.ts); the attached
// statement keeps the exact text, which its SHA-256 covers.

/** A value to be copied exactly (a hash, a signature, a key): on its own line, in a fixed-width font small enough not to wrap. */
function code(doc: Doc, label: string, value: string) {
  doc.font('Helvetica-Bold').text(`${printable(label)}:`).font('Courier').fontSize(8).text(value).font('Helvetica').fontSize(10);
}

function message(doc: Doc, m: CertifiedMessage) {
  heading(doc, text('certificate.message', { id: m.id }));
  field(doc, text('certificate.account'), `${m.account.name} (${es.enumLabel('channel-platform', m.account.platform)})`);
  field(doc, text('certificate.sender'), m.account.sender ?? text('certificate.none'));
  field(doc, text('certificate.phone'), m.recipient);
  field(doc, text('certificate.content'), m.content);
  field(doc, text('certificate.contentSha256'), m.contentSha256);
  field(doc, text('certificate.state'), `${es.enumLabel('message-state', m.state)}${m.deliveryStatus ? ` · ${es.enumLabel('delivery-status', m.deliveryStatus)}` : ''} · ${statusWords(m.statusCode)}`);
  field(doc, text('certificate.operator'), m.operator ?? text('certificate.none'));
  field(doc, text('certificate.submittedAt'), when(m.submittedAt));
  field(doc, text('certificate.acceptedAt'), when(m.acceptedAt));
  field(doc, text('certificate.deliveredAt'), when(m.deliveredAt));
  if (m.receipts.length) {
    doc.font('Helvetica-Bold').text(text('certificate.receipts')).font('Helvetica');
    for (const r of m.receipts) {
      const note = eventNote(r.detail);
      doc.text(printable(`• ${when(r.at)} · ${es.enumLabel('message-state', r.state)}${r.deliveryStatus ? ` · ${es.enumLabel('delivery-status', r.deliveryStatus)}` : ''}${r.statusCode !== null ? ` · ${statusWords(r.statusCode)}` : ''}${note ? ` · ${note}` : ''}`), { indent: 12 });
    }
  }
  if (m.clicks.length) {
    doc.font('Helvetica-Bold').text(text('certificate.clicks')).font('Helvetica');
    for (const c of m.clicks) doc.text(printable(`• ${when(c.at)} · ${c.device}${c.url ? ` · ${c.url}` : ''}`), { indent: 12 });
  }
}

function body(doc: Doc, s: Statement) {
  switch (s.kind) {
    case 'number': {
      field(doc, text('certificate.phone'), s.subject.phone);
      field(doc, text('certificate.period'), `${s.subject.dateStart} – ${s.subject.dateEnd}`);
      field(doc, text('certificate.accounts'), s.subject.accounts ? s.subject.accounts.map((a) => a.name).join(', ') : text('certificate.allAccounts'));
      heading(doc, text('certificate.messages', { count: s.messages.length }));
      if (!s.messages.length) doc.text(text('certificate.noMessages'));
      if (s.truncated) doc.text(text('certificate.truncated', { count: s.messages.length }));
      for (const m of s.messages) message(doc, m);
      return;
    }
    case 'campaign': {
      field(doc, text('certificate.campaign'), `${s.subject.name} (${s.subject.campaignId})`);
      if (s.subject.deploymentId) field(doc, text('certificate.deployment'), String(s.subject.deploymentId));
      if (s.campaign.account) field(doc, text('certificate.account'), `${s.campaign.account.name} (${es.enumLabel('channel-platform', s.campaign.account.platform)})`);
      field(doc, text('certificate.sender'), s.campaign.account?.sender ?? text('certificate.none'));
      field(doc, text('certificate.content'), s.campaign.content);
      field(doc, text('certificate.contentSha256'), s.campaign.contentSha256);
      heading(doc, text('certificate.deployments'));
      for (const d of s.deployments) doc.text(printable(`• ${d.id} · ${es.enumLabel('deployment-state', d.state)} · ${when(d.startedAt)} – ${when(d.finishedAt)} · ${d.total} ${text('certificate.total')}`), { indent: 12 });
      heading(doc, text('certificate.outcome'));
      for (const [state, count] of Object.entries(s.outcome.byState)) doc.text(printable(`• ${es.enumLabel('message-state', state)}: ${count}`), { indent: 12 });
      field(doc, text('certificate.rowsDigest', { count: s.rows.count, columns: s.rows.columns.join(',') }), s.rows.sha256);
      doc.moveDown(0.2).text(printable(text('certificate.rowsFormat', { columns: s.rows.columns.join(',') })));
      return;
    }
    case 'blockList': {
      field(doc, text('certificate.phone'), s.subject.phone);
      doc.moveDown(0.4).text(text(s.entry ? 'certificate.listed' : 'certificate.notListed'));
      if (s.entry) {
        field(doc, text('certificate.addedAt'), when(s.entry.addedAt));
        field(doc, text('certificate.source'), es.enumLabel('block-list-source', s.entry.source));
        field(doc, text('certificate.effectiveAt'), when(s.entry.effectiveAt));
        if (s.entry.removalRequestedAt) field(doc, text('certificate.removalRequestedAt'), when(s.entry.removalRequestedAt));
        if (s.entry.removalEffectiveAt) field(doc, text('certificate.removalEffectiveAt'), when(s.entry.removalEffectiveAt));
      }
      return;
    }
  }
}

/** The verification page's address as a QR code, drawn at the cursor (about 2.5 cm). */
function verifyQr(doc: Doc, url: string) {
  const qr = qrcode(0, 'M');
  qr.addData(url);
  qr.make();
  const count = qr.getModuleCount();
  const size = 72;
  const cell = size / count;
  const x = doc.page.margins.left;
  const y = doc.y;
  for (let r = 0; r < count; r++) {
    for (let c = 0; c < count; c++) if (qr.isDark(r, c)) doc.rect(x + c * cell, y + r * cell, cell, cell);
  }
  doc.fill('#000000');
  doc.y = y + size + 6;
  doc.x = x;
}

/** "Página n de N" at the foot of every page (the pages are buffered until the end). */
function pageNumbers(doc: Doc) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8).text(printable(text('certificate.page', { page: i + 1, pages: range.count })), doc.page.margins.left, doc.page.height - 36, { align: 'center', width: doc.page.width - doc.page.margins.left - doc.page.margins.right, lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

/** The certificate's signed PDF (a statement holds at most a few hundred messages). */
export async function certificatePdf(signed: SignedStatement, signing: DocumentSigning): Promise<Buffer> {
  const s = signed.statement;
  const title = text(`certificate.title_${s.kind}`);
  const issuer = s.issuerLegal ?? null;
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 54,
    lang: 'es-CO',
    bufferPages: true,
    info: { Title: title, Author: issuer?.name ?? s.issuer, Subject: s.id, Keywords: `sha256:${signed.sha256}`, CreationDate: new Date(s.issuedAt) },
  });
  const done = pdfBytes(doc);
  doc.font('Helvetica-Bold').fontSize(16).text(printable(title));
  doc.font('Helvetica').fontSize(10).moveDown(0.4).text(printable(issuer
    ? text('certificate.introLegal', { issuer: s.issuer, legalName: issuer.name, nit: issuer.nit })
    : text('certificate.intro', { issuer: s.issuer })));
  doc.moveDown(0.4);
  field(doc, text('certificate.id'), s.id);
  field(doc, text('certificate.issuedAt'), when(s.issuedAt));
  field(doc, text('certificate.company'), s.company.name);
  field(doc, text('certificate.nit'), s.company.nit ?? text('certificate.none'));
  body(doc, s);
  heading(doc, text('certificate.signed'));
  code(doc, text('certificate.statementSha256'), signed.sha256);
  code(doc, text('certificate.signature'), signed.signature);
  field(doc, text('certificate.keyId'), signed.keyId);
  code(doc, text('certificate.publicKey'), signed.publicKey);
  doc.moveDown(0.4);
  if (doc.y > doc.page.height - doc.page.margins.bottom - 160) doc.addPage();
  verifyQr(doc, signed.verifyUrl);
  doc.text(printable(text('certificate.verify', { url: signed.verifyUrl })));
  doc.moveDown(0.3).text(printable(text(signing.timestamps ? 'certificate.pdfSigned' : 'certificate.pdfSignedNoStamp')));
  doc.file(Buffer.from(signed.canonical, 'utf8'), { name: 'certificate.json', type: 'application/json', description: 'Colibri signed statement', creationDate: new Date(s.issuedAt), modifiedDate: new Date(s.issuedAt) });
  pageNumbers(doc);
  doc.switchToPage(0);
  const signingTime = new Date(s.issuedAt);
  addSignaturePlaceholder(doc, {
    reason: text('certificate.signatureReason', { id: s.id }), name: issuer?.name ?? s.issuer, location: 'Colombia',
    contactInfo: signed.verifyUrl, signingTime,
  });
  doc.end();
  return signPdf(await done, await signing.identity(), signing.timestamps, signingTime);
}
