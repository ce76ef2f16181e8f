// The help form (schemas/api/help.yaml) on the database (PGlite, or PostgreSQL with DATABASE_URL)
// and a real folder: a person's request with an attachment reaches the staff (a notification and
// an e-mail), the staff read every company's requests and download the attachment through a
// signed link with its own name and type; a company reads only its own. An attachment is proven by
// its bytes (a program renamed .pdf, a binary called .txt, an Office file that is not one: 99932),
// at most 26,214,400 bytes (99937); another's or a used attachment is 99959; one no request names
// is removed after a day.
import { describe, expect, it } from 'vitest';
import { removeUnusedAttachments } from '../../src/server/modules/help/index.ts';
import { attachmentRuleExtensions } from '../../src/server/modules/help/attachment-types.ts';
import { constants } from '../../src/generated/constants.gen.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { multipart } from './harness.ts';
import { otherCompany } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'platform', 'manager', 'analista');

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const attach = (name: string, bytes: Buffer, token = tokens.manager, type = 'application/octet-stream') =>
  h.op('help.uploadAttachment', { token, ...multipart('file', name, type, bytes) });
const ask = (body: Record<string, unknown>, token = tokens.manager) => h.op('help.createRequest', { token, body });

describe('a help request', () => {
  it('reaches the staff with its attachment: a notification, an e-mail, the list, and a signed download with its own name', async () => {
    const uploaded = await attach('factura junio.pdf', PDF);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json()).toMatchObject({ name: 'factura junio.pdf', size: PDF.length, contentType: 'application/pdf' });
    const made = await ask({ subject: 'No veo la factura', message: 'Adjunto la factura de junio.', attachmentId: uploaded.json().id });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ subject: 'No veo la factura', companyName: 'Demo S.A.S.', attachmentName: 'factura junio.pdf', attachmentSize: PDF.length });

    const staffEmail = demoEmail('platform');
    const mail = (await h.outbox(staffEmail)).find((m) => m.subject.includes('No veo la factura'));
    expect(mail?.body).toContain('Adjunto la factura de junio.');
    const staffId = (await h.db.selectFrom('users').select('id').where('email', '=', staffEmail).executeTakeFirstOrThrow()).id;
    expect(await h.db.selectFrom('notifications').select(['title', 'message']).where('user_id', '=', staffId).where('title', 'like', 'Solicitud de ayuda%').execute())
      .toEqual([expect.objectContaining({ message: expect.stringContaining('No veo la factura') })]);

    const listed = (await h.op('help.listRequests', { token: tokens.platform, query: {} })).json();
    expect(listed.items.map((r: { id: number }) => r.id)).toContain(made.json().id);
    const { url } = (await h.op('help.attachmentLink', { token: tokens.platform, params: { id: made.json().id } })).json();
    const file = await h.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain("filename*=UTF-8''factura%20junio.pdf");
    expect(Buffer.compare(file.rawPayload, PDF)).toBe(0);
    // An altered link: one answer, no file.
    const expires = Number(new URL(url, 'http://x').searchParams.get('expires'));
    expect((await h.op('help.attachment', { params: { id: made.json().id }, query: { expires, signature: 'A'.repeat(43) } })).json().code).toBe('99982');
  });

  it('a company reads only its own requests and attachments; the staff read every company\'s', async () => {
    const theirs = await otherCompany(h);
    const uploaded = await attach('notas.txt', Buffer.from('Hola, necesito ayuda con el envío.\n'), theirs.token);
    expect(uploaded.json().contentType).toBe('text/plain; charset=utf-8');
    const made = (await ask({ subject: 'Ayuda ajena', message: 'Otra empresa', attachmentId: uploaded.json().id }, theirs.token)).json();
    expect((await h.op('help.listRequests', { token: tokens.analista, query: {} })).json().items.map((r: { subject: string }) => r.subject)).not.toContain('Ayuda ajena');
    expect((await h.op('help.attachmentLink', { token: tokens.manager, params: { id: made.id } })).json().code).toBe('99959');
    expect((await h.op('help.listRequests', { token: tokens.platform, query: { q: 'Ayuda ajena' } })).json().items).toHaveLength(1);
    expect((await h.op('help.attachmentLink', { token: tokens.platform, params: { id: made.id } })).statusCode).toBe(200);
  });

  it('an attachment is what its bytes say, of an allowed kind, within 26,214,400 bytes', async () => {
    const cases: [string, Buffer, string][] = [
      ['a program renamed .pdf', Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00', 'latin1'), 'informe.pdf'],
      ['a kind not allowed', Buffer.from('PNG-like'), 'foto.png'],
      ['a binary called .txt', Buffer.from([0x41, 0x00, 0x42, 0x43]), 'notas.txt'],
      ['a zip called .docx without a document inside', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('otro/archivo.xml')]), 'carta.docx'],
      ['an image called .jpg that is a GIF', Buffer.from('GIF89a....'), 'foto.jpg'],
      ['an empty file', Buffer.alloc(0), 'vacio.csv'],
    ];
    for (const [what, bytes, name] of cases) {
      const res = await attach(name, bytes);
      expect([res.statusCode, res.json().errors?.[0]?.code ?? res.json().code], what).toEqual([415, '99932']);
    }
    const docx = await attach('carta.docx', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('word/document.xml')]));
    expect(docx.json().contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const big = await attach('grande.csv', Buffer.alloc(constants.uploads.attachmentBytes + 1, 0x61));
    expect([big.statusCode, big.json().errors?.[0]?.code ?? big.json().code]).toEqual([413, '99937']);
    // Every allowed extension has its byte rule.
    expect([...attachmentRuleExtensions].sort()).toEqual([...constants.uploads.attachmentExtensions].sort());
  });

  it('names only the person\'s own, unused attachment (99959), and needs a subject and a message', async () => {
    const mine = (await attach('datos.csv', Buffer.from('telefono\n3001234567\n'))).json();
    expect((await ask({ subject: 'Uno', message: 'x', attachmentId: mine.id }, tokens.analista)).json().errors[0]).toMatchObject({ field: 'attachmentId', code: '99959' });
    expect((await ask({ subject: 'Dos', message: 'x', attachmentId: mine.id })).statusCode).toBe(200);
    const before = await h.count('help_requests');
    expect((await ask({ subject: 'Tres', message: 'x', attachmentId: mine.id })).json().errors[0]).toMatchObject({ field: 'attachmentId', code: '99959' });
    expect(await h.count('help_requests')).toBe(before);
    expect((await ask({ subject: '   ', message: 'x' })).json().errors[0]).toMatchObject({ field: 'subject', code: '99999' });
    expect((await ask({ message: 'x' })).json().code).toBe('99999');
  });

  it('an attachment no request named within a day is removed, with its file', async () => {
    const left = (await attach('olvidado.pdf', PDF)).json();
    const key = `help/${(await h.db.selectFrom('help_attachments').select('company_id').where('id', '=', left.id).executeTakeFirstOrThrow()).company_id}/${left.id}.bin`;
    expect(await h.storage.size(key)).toBe(PDF.length);
    expect(await removeUnusedAttachments(h.db, h.storage, new Date(Date.now() + 3_600_000))).toBe(0);
    expect(await removeUnusedAttachments(h.db, h.storage, new Date(Date.now() + 25 * 3_600_000))).toBeGreaterThanOrEqual(1);
    expect(await h.db.selectFrom('help_attachments').select('id').where('id', '=', left.id).executeTakeFirst()).toBeUndefined();
    expect(await h.storage.size(key)).toBeNull();
  });
});
