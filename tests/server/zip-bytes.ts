// Workbooks for tests of the upload guards, built with the recipients fixtures' ZIP writer: a
// small real one, and a bomb whose sheet declares 5,000 bytes and inflates to far more.
import { workbookParts, zip } from '../fixtures/recipients/helpers.ts';

const row = (v: string, i: number) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${v}</t></is></c></row>`;

/** A workbook whose one sheet has these first-column values. */
export function workbook(values: string[]): Buffer {
  return zip(workbookParts(values.map(row).join('')));
}

/**
 * A zip bomb shaped like the probe's: the sheet declares 5,000 bytes and inflates to `inflated`
 * bytes (blank padding inside the sheet's XML, so a reader that trusts the size parses it all).
 */
export function workbookBomb(inflated: number): Buffer {
  const parts = workbookParts(row('3201110399', 0));
  const sheet = parts.find((p) => p.name === 'xl/worksheets/sheet1.xml')!;
  const xml = String(sheet.data);
  const cut = xml.indexOf('</sheetData>');
  const padded = Buffer.alloc(inflated, 0x20);
  padded.write(xml.slice(0, cut), 0);
  padded.write(xml.slice(cut), inflated - (xml.length - cut));
  sheet.data = padded;
  sheet.declaredSize = 5000;
  return zip(parts);
}
