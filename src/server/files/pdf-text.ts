// What the server's PDFs (a certificate, a payment voucher) share, with pdfkit: text the standard
// fonts can write, a section heading, a "label: value" line, and the document's bytes once it ends.
import type PDFDocument from 'pdfkit';

export type Doc = InstanceType<typeof PDFDocument>;

// The standard PDF fonts write Windows-1252: other characters (emoji, other scripts) print as "?".
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
export const printable = (s: string) => [...s].map((c) => ((c >= ' ' && c <= '~') || (c >= '\u00a0' && c <= '\u00ff') || WIN_ANSI_EXTRA.has(c) || c === '\n' ? c : '?')).join('');

export function heading(doc: Doc, s: string): void {
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(12).text(printable(s)).font('Helvetica').fontSize(10);
}

export function field(doc: Doc, label: string, value: string): void {
  doc.font('Helvetica-Bold').text(`${printable(label)}: `, { continued: true }).font('Helvetica').text(printable(value));
}

/** The document's bytes, collected as pdfkit writes them; call before `doc.end()`. */
export function pdfBytes(doc: Doc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
