// An approved purchase's voucher: a PDF made with the certificates' library (pdfkit),
// in Spanish, with the company's data, every field of the transaction and its verification id.
// It is made from the stored movement each time it is downloaded, dated at the payment: the same
// purchase gives the same document.
import PDFDocument from 'pdfkit';
import { appSettings } from '../../../generated/app.gen.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { field, heading, pdfBytes, printable, type Doc } from '../../files/pdf-text.ts';
import { wordsFor } from '../../i18n/document-words.ts';

// Issued in Spanish whatever the reader's language: the company's evidence and its accounting
// documents are Colombian documents (as the DIAN's invoices are).
const es = wordsFor('es');
const text = es.text;

const TIME_ZONE = constants.sendWindow.timeZone;
const INSTANT = new Intl.DateTimeFormat('es-CO', { timeZone: TIME_ZONE, dateStyle: 'long', timeStyle: 'medium', hourCycle: 'h23' });
const PESOS = new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP', maximumFractionDigits: 0 });
const INTEGER = new Intl.NumberFormat('es-CO');

export interface VoucherData {
  company: { name: string; nit: string | null; address: string | null };
  payment: {
    invoice: string; status: string; date: Date; confirmedAt: Date; amount: number; tax: number; credits: number; currency: string;
    method?: string | null; paymentType?: string | null; bank?: string | null; cardNumber?: string | null; reference?: string | null;
    transactionId?: string | null; gatewayText?: string | null; clientName?: string | null; documentType?: string | null; document?: string | null;
    ip?: string | null; verificationId: string;
  };
}

/** A line of the voucher; a field the gateway did not send reads as a dash. */
const line = (doc: Doc, label: string, value: string | null | undefined) => field(doc, label, value ?? text('voucher.none'));

export function voucherPdf(v: VoucherData): Promise<Buffer> {
  const p = v.payment;
  const doc = new PDFDocument({
    size: 'LETTER', margin: 54, lang: 'es-CO',
    info: { Title: text('voucher.title'), Author: appSettings.product.name, Subject: p.invoice, Keywords: `verification:${p.verificationId}`, CreationDate: p.confirmedAt },
  });
  const done = pdfBytes(doc);
  doc.font('Helvetica-Bold').fontSize(16).text(printable(text('voucher.title')));
  doc.font('Helvetica').fontSize(10).moveDown(0.4).text(printable(text('voucher.intro')));
  heading(doc, text('voucher.company'));
  line(doc, text('voucher.companyName'), v.company.name);
  line(doc, 'NIT', v.company.nit);
  line(doc, text('voucher.address'), v.company.address);
  heading(doc, text('voucher.transaction'));
  line(doc, es.fieldTitle('invoice'), p.invoice);
  line(doc, es.fieldTitle('status'), es.enumLabel('payment-status', p.status));
  line(doc, es.fieldTitle('date'), `${INSTANT.format(p.date)} (${TIME_ZONE})`);
  line(doc, text('voucher.confirmedAt'), `${INSTANT.format(p.confirmedAt)} (${TIME_ZONE})`);
  line(doc, text('voucher.value'), PESOS.format(p.amount - p.tax));
  line(doc, es.fieldTitle('tax'), PESOS.format(p.tax));
  line(doc, text('voucher.total'), `${PESOS.format(p.amount)} ${p.currency}`);
  line(doc, es.fieldTitle('creditsMoved'), INTEGER.format(p.credits));
  line(doc, es.fieldTitle('method'), p.method);
  line(doc, es.fieldTitle('paymentType'), p.paymentType);
  line(doc, es.fieldTitle('bank'), p.bank);
  line(doc, es.fieldTitle('cardNumber'), p.cardNumber);
  line(doc, es.fieldTitle('reference'), p.reference);
  line(doc, es.fieldTitle('transactionId'), p.transactionId);
  line(doc, es.fieldTitle('gatewayText'), p.gatewayText);
  heading(doc, text('voucher.buyer'));
  line(doc, es.fieldTitle('clientName'), p.clientName);
  line(doc, es.fieldTitle('documentType'), p.documentType);
  line(doc, es.fieldTitle('document'), p.document);
  line(doc, es.fieldTitle('ip'), p.ip);
  doc.moveDown(0.8).font('Helvetica-Bold').text(printable(text('voucher.verificationId')), { continued: true }).font('Courier').text(` ${p.verificationId}`);
  doc.font('Helvetica').moveDown(0.4).text(printable(text('voucher.verificationNote')));
  doc.end();
  return done;
}
