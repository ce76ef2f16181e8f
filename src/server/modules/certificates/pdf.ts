// A certificate's PDF (pdfkit): what the statement says, in Spanish, then the statement's SHA-256,
// the Ed25519 signature, the key and where to verify it; the signed statement itself rides along
// as an attached file (certificate.json), so a copy can be checked without asking us. The PDF is
// made from the stored statement each time it is downloaded, with the issue instant as its
// creation date: the same certificate gives the same document.
import PDFDocument from 'pdfkit';
import { constants } from '../../../generated/constants.gen.ts';
import { field, heading, pdfBytes, printable, type Doc } from '../../files/pdf-text.ts';
import { wordsFor } from '../../i18n/document-words.ts';

// Issued in Spanish whatever the reader's language: the company's evidence and its accounting
// documents are Colombian documents (as the DIAN's invoices are).
const es = wordsFor('es');
const text = es.text;
import type { CertifiedMessage, Statement } from './statements.ts';

export interface SignedStatement { statement: Statement; canonical: string; sha256: string; signature: string; keyId: string; publicKey: string; verifyUrl: string }

const TIME_ZONE = constants.sendWindow.timeZone;
// One formatter for the module: a certificate prints hundreds of instants.
const INSTANT = new Intl.DateTimeFormat('es-CO', { timeZone: TIME_ZONE, dateStyle: 'short', timeStyle: 'medium', hourCycle: 'h23' });
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
  field(doc, text('certificate.state'), `${es.enumLabel('message-state', m.state)}${m.deliveryStatus ? ` · ${es.enumLabel('delivery-status', m.deliveryStatus)}` : ''} · ${m.statusCode}`);
  field(doc, text('certificate.operator'), m.operator ?? text('certificate.none'));
  field(doc, text('certificate.submittedAt'), when(m.submittedAt));
  field(doc, text('certificate.acceptedAt'), when(m.acceptedAt));
  field(doc, text('certificate.deliveredAt'), when(m.deliveredAt));
  if (m.receipts.length) {
    doc.font('Helvetica-Bold').text(text('certificate.receipts')).font('Helvetica');
    for (const r of m.receipts) {
      doc.text(printable(`• ${when(r.at)} · ${es.enumLabel('message-state', r.state)}${r.deliveryStatus ? ` · ${es.enumLabel('delivery-status', r.deliveryStatus)}` : ''}${r.statusCode !== null ? ` · ${r.statusCode}` : ''}${r.detail ? ` · ${r.detail}` : ''}`), { indent: 12 });
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

/** The certificate's PDF, in memory (a statement holds at most a few hundred messages). */
export function certificatePdf(signed: SignedStatement): Promise<Buffer> {
  const s = signed.statement;
  const title = text(`certificate.title_${s.kind}`);
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 54,
    lang: 'es-CO',
    info: { Title: title, Author: s.issuer, Subject: s.id, Keywords: `sha256:${signed.sha256}`, CreationDate: new Date(s.issuedAt) },
  });
  const done = pdfBytes(doc);
  doc.font('Helvetica-Bold').fontSize(16).text(printable(title));
  doc.font('Helvetica').fontSize(10).moveDown(0.4).text(printable(text('certificate.intro', { issuer: s.issuer })));
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
  doc.moveDown(0.4).text(printable(text('certificate.verify', { url: signed.verifyUrl })));
  doc.file(Buffer.from(signed.canonical, 'utf8'), { name: 'certificate.json', type: 'application/json', description: 'Colibri signed statement', creationDate: new Date(s.issuedAt), modifiedDate: new Date(s.issuedAt) });
  doc.end();
  return done;
}
