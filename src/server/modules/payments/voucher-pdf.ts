// An approved purchase's voucher (issue 16): a PDF made with the certificates' library (pdfkit),
// in Spanish, with the company's data, every field of the transaction and its verification id.
// It is made from the stored movement each time it is downloaded, dated at the payment: the same
// purchase gives the same document.
import PDFDocument from 'pdfkit';
import { appSettings } from '../../../generated/app.gen.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { spanishDocumentText as text, spanishEnumLabel, spanishFieldTitle } from '../../i18n/spanish-labels.ts';

const TIME_ZONE = constants.sendWindow.timeZone;
const INSTANT = new Intl.DateTimeFormat('es-CO', { timeZone: TIME_ZONE, dateStyle: 'long', timeStyle: 'medium', hourCycle: 'h23' });
const PESOS = new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP', maximumFractionDigits: 0 });
const INTEGER = new Intl.NumberFormat('es-CO');
// The standard PDF fonts write Windows-1252 (a name in another script prints as "?").
const printable = (s: string) => [...s].map((c) => ((c >= ' ' && c <= '~') || (c >= '\u00a0' && c <= '\u00ff') ? c : '?')).join('');

export interface VoucherData {
  company: { name: string; nit: string | null; address: string | null };
  payment: {
    invoice: string; status: string; date: Date; confirmedAt: Date; amount: number; tax: number; credits: number; currency: string;
    method?: string | null; paymentType?: string | null; bank?: string | null; cardNumber?: string | null; reference?: string | null;
    transactionId?: string | null; gatewayText?: string | null; clientName?: string | null; documentType?: string | null; document?: string | null;
    ip?: string | null; verificationId: string;
  };
}

type Doc = InstanceType<typeof PDFDocument>;

function field(doc: Doc, label: string, value: string | null | undefined) {
  doc.font('Helvetica-Bold').text(`${printable(label)}: `, { continued: true }).font('Helvetica').text(printable(value ?? text('voucher.none')));
}

export function voucherPdf(v: VoucherData): Promise<Buffer> {
  const p = v.payment;
  const doc = new PDFDocument({
    size: 'LETTER', margin: 54, lang: 'es-CO',
    info: { Title: text('voucher.title'), Author: appSettings.product.name, Subject: p.invoice, Keywords: `verification:${p.verificationId}`, CreationDate: p.confirmedAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(16).text(printable(text('voucher.title')));
  doc.font('Helvetica').fontSize(10).moveDown(0.4).text(printable(text('voucher.intro')));
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(12).text(printable(text('voucher.company'))).font('Helvetica').fontSize(10);
  field(doc, text('voucher.companyName'), v.company.name);
  field(doc, 'NIT', v.company.nit);
  field(doc, text('voucher.address'), v.company.address);
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(12).text(printable(text('voucher.transaction'))).font('Helvetica').fontSize(10);
  field(doc, spanishFieldTitle('invoice'), p.invoice);
  field(doc, spanishFieldTitle('status'), spanishEnumLabel('payment-status', p.status));
  field(doc, spanishFieldTitle('date'), `${INSTANT.format(p.date)} (${TIME_ZONE})`);
  field(doc, text('voucher.confirmedAt'), `${INSTANT.format(p.confirmedAt)} (${TIME_ZONE})`);
  field(doc, text('voucher.value'), PESOS.format(p.amount - p.tax));
  field(doc, spanishFieldTitle('tax'), PESOS.format(p.tax));
  field(doc, text('voucher.total'), `${PESOS.format(p.amount)} ${p.currency}`);
  field(doc, spanishFieldTitle('creditsMoved'), INTEGER.format(p.credits));
  field(doc, spanishFieldTitle('method'), p.method);
  field(doc, spanishFieldTitle('paymentType'), p.paymentType);
  field(doc, spanishFieldTitle('bank'), p.bank);
  field(doc, spanishFieldTitle('cardNumber'), p.cardNumber);
  field(doc, spanishFieldTitle('reference'), p.reference);
  field(doc, spanishFieldTitle('transactionId'), p.transactionId);
  field(doc, spanishFieldTitle('gatewayText'), p.gatewayText);
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(12).text(printable(text('voucher.buyer'))).font('Helvetica').fontSize(10);
  field(doc, spanishFieldTitle('clientName'), p.clientName);
  field(doc, spanishFieldTitle('documentType'), p.documentType);
  field(doc, spanishFieldTitle('document'), p.document);
  field(doc, spanishFieldTitle('ip'), p.ip);
  doc.moveDown(0.8).font('Helvetica-Bold').text(printable(text('voucher.verificationId')), { continued: true }).font('Courier').text(` ${p.verificationId}`);
  doc.font('Helvetica').moveDown(0.4).text(printable(text('voucher.verificationNote')));
  doc.end();
  return done;
}
