// Reads a PDF back as a person's viewer would (Mozilla's pdf.js): the text of every page, in
// order, and the files attached to it. Tests use it to check what a generated PDF says.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface ReadPdf { text: string; attachments: Record<string, Buffer>; info: Record<string, unknown> }

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, verbosity: 0 });
  const doc = await task.promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n += 1) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.map((i) => ('str' in i ? i.str + (i.hasEOL ? '\n' : '') : '')).join(''));
    }
    // pdf.js lists the attached files first and reads each one's bytes on request.
    const attachments: Record<string, Buffer> = {};
    for (const [id, a] of (await doc.getAttachments()) ?? new Map()) {
      const content = a.content ?? (await doc.getAttachmentContent(id));
      if (content) attachments[a.filename] = Buffer.from(content);
    }
    const { info } = (await doc.getMetadata()) as { info: Record<string, unknown> };
    return { text: pages.join('\n'), attachments, info };
  } finally {
    await task.destroy();
  }
}
