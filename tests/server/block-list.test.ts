// Block list: typed and uploaded numbers, the 24-hour rule for additions and removals (pending
// versus effective), the paged list, hostile and malformed input, permissions and isolation.
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { isBlocked } from '../../src/core/block-list.ts';
import { routeInbound } from '../../src/engine/inbound.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart, PNG_1x1 } from './harness.ts';
import { counts, demoCompanyId, otherCompany } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
const DAY = 24 * 3_600_000;
const FORMULA = "=cmd|' /C calc'!A0";

/** Moves the clock on; sessions last 12 hours, so the manager signs in again. */
async function later(ms: number) {
  h.clock.advance(ms);
  tokens.manager = (await h.as('manager')).token;
}
const add = (numbers: string, token = tokens.manager) => h.op('blockList.add', { token, body: { numbers } });
const upload = (name: string, type: string, bytes: Buffer, token = tokens.manager) => h.op('blockList.upload', { token, ...multipart('file', name, type, bytes) });
const list = async (query: Record<string, string | number> = {}) => (await h.op('blockList.list', { token: tokens.manager, query: { pageSize: 200, ...query } })).json();
const entryOf = async (phone: string) => (await list({ q: phone })).items.find((e: { phone: string }) => e.phone === phone);
/** What the engine would see: every stored entry of the demo company. */
const entries = async () => (await h.db.selectFrom('block_list').selectAll().where('company_id', '=', await demoCompanyId(h)).execute())
  .map((r) => ({ phone: r.phone, effectiveAt: r.effective_at, removalEffectiveAt: r.removal_effective_at }));
const xlsx = (rows: unknown[][], extra?: (ws: XLSX.WorkSheet) => void, bookType: XLSX.BookType = 'xlsx') => {
  const ws = XLSX.utils.aoa_to_sheet(rows);
  extra?.(ws);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'recipient');
  return XLSX.write(wb, { type: 'buffer', bookType }) as Buffer;
};

describe('typed numbers and the 24-hour rule', () => {
  it('shows the demo entries: effective, pending additions and a pending removal', async () => {
    const all = (await list()).items;
    const byPhone = (phone: string) => all.find((e: { phone: string }) => e.phone === phone);
    expect(byPhone('+573001112233')).toMatchObject({ status: 'effective', pendingAction: null });
    expect(byPhone('+573015550000')).toMatchObject({ status: 'pending', pendingAction: 'add' });
    expect(byPhone('+573178889900')).toMatchObject({ status: 'pending', pendingAction: 'remove' });
    expect((await list({ status: 'pending' })).total).toBe(3);
    expect((await list({ status: 'effective' })).total).toBe(3);
  });

  it('adds valid numbers as pending and answers what was refused and why', async () => {
    const res = await add(`3001234567, 310 987 6543, abc, , 300-123-4567, ${FORMULA}, <b>3</b>`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      added: 2,
      effectiveAt: new Date(h.clock.now.getTime() + DAY).toISOString(),
      rejectedTotal: 5,
      rejected: [
        { position: 3, value: 'abc', reason: 'invalidPhone' },
        { position: 4, value: '', reason: 'emptyPhone' },
        { position: 5, value: '300-123-4567', reason: 'duplicate' },
        { position: 6, value: FORMULA, reason: 'invalidPhone' },
        { position: 7, value: '<b>3</b>', reason: 'invalidPhone' },
      ],
    });
    const entry = await entryOf('+573001234567');
    expect(entry).toMatchObject({ status: 'pending', pendingAction: 'add', source: 'manual', removalEffectiveAt: null });
    expect(isBlocked(await entries(), '3001234567', h.clock.now)).toBe(false);
    expect((await list({ status: 'effective' })).items.map((e: { phone: string }) => e.phone)).not.toContain('+573001234567');
  });

  it('takes effect 24 hours later', async () => {
    await later(DAY);
    expect(await entryOf('+573001234567')).toMatchObject({ status: 'effective', pendingAction: null });
    expect(isBlocked(await entries(), '+57 300 123 4567', h.clock.now)).toBe(true);
    expect((await list({ status: 'pending' })).items.map((e: { phone: string }) => e.phone)).not.toContain('+573001234567');
  });

  it('a number already listed is reported, not added again', async () => {
    const res = (await add('3001234567, 3115550101')).json();
    expect(res).toMatchObject({ added: 1, rejectedTotal: 1, rejected: [{ position: 1, value: '+573001234567', reason: 'alreadyListed' }] });
  });

  it('a removal is pending for 24 hours: the number keeps blocking, then leaves the list', async () => {
    const entry = await entryOf('+573109876543');
    expect((await h.op('blockList.remove', { token: tokens.manager, params: { id: entry.id } })).json()).toEqual({ ok: true });
    expect(await entryOf('+573109876543')).toMatchObject({ status: 'pending', pendingAction: 'remove', removalEffectiveAt: new Date(h.clock.now.getTime() + DAY).toISOString() });
    expect(isBlocked(await entries(), '3109876543', h.clock.now)).toBe(true);
    // Removing twice changes nothing.
    expect((await h.op('blockList.remove', { token: tokens.manager, params: { id: entry.id } })).json()).toEqual({ ok: true });
    await later(DAY);
    expect(await entryOf('+573109876543')).toBeUndefined();
    expect(isBlocked(await entries(), '3109876543', h.clock.now)).toBe(false);
    expect((await h.op('blockList.remove', { token: tokens.manager, params: { id: entry.id } })).json().code).toBe('99959');
    // Added again later: a fresh addition, pending for 24 hours.
    expect((await add('3109876543')).json().added).toBe(1);
    expect(await entryOf('+573109876543')).toMatchObject({ status: 'pending', pendingAction: 'add' });
  });

  it('adding a number whose removal is pending cancels the removal (it never stopped blocking)', async () => {
    const entry = await entryOf('+573001234567');
    await h.op('blockList.remove', { token: tokens.manager, params: { id: entry.id } });
    expect((await add('3001234567')).json().added).toBe(1);
    expect(await entryOf('+573001234567')).toMatchObject({ status: 'effective', pendingAction: null, removalEffectiveAt: null, effectiveAt: entry.effectiveAt });
  });

  it('a removed number that answers SALIR is blocked again, through the same writer as the screen', async () => {
    const companyId = await demoCompanyId(h);
    const channel = await h.db.selectFrom('channels').select('id').where('company_id', '=', companyId).where('platform', '=', 'sms').orderBy('id').executeTakeFirstOrThrow();
    expect((await add('3157654321')).json().added).toBe(1);
    await later(DAY);
    await h.op('blockList.remove', { token: tokens.manager, params: { id: (await entryOf('+573157654321')).id } });
    await later(DAY);
    expect(await entryOf('+573157654321')).toBeUndefined();
    // The person writes SALIR: on the list again, pending for 24 hours like any addition, then blocking.
    await routeInbound(h.db, channel.id, { from: '573157654321', to: '890123', text: 'Salir', providerMessageId: 'salir-after-removal', at: h.clock.now }, null, () => h.clock.now);
    expect(await entryOf('+573157654321')).toMatchObject({ status: 'pending', pendingAction: 'add', removalEffectiveAt: null });
    await later(DAY);
    expect(isBlocked(await entries(), '3157654321', h.clock.now)).toBe(true);
    // CANCELAR while a removal is pending cancels the removal.
    await h.op('blockList.remove', { token: tokens.manager, params: { id: (await entryOf('+573157654321')).id } });
    await routeInbound(h.db, channel.id, { from: '573157654321', to: '890123', text: 'cancelar', providerMessageId: 'cancelar-pending-removal', at: h.clock.now }, null, () => h.clock.now);
    expect(await entryOf('+573157654321')).toMatchObject({ status: 'effective', pendingAction: null, removalEffectiveAt: null });
  });
});

describe('bad typed input changes nothing', () => {
  it.each([
    ['nothing', '', '99960'],
    ['only separators', ' , ;, ', '99960'],
    ['no valid phone', `abc, 12345, ${FORMULA}`, '99963'],
    ['a foreign number', '+1 202 555 0100', '99963'],
  ])('%s', async (_, numbers, code) => {
    const before = await counts(h, ['block_list']);
    const res = await add(numbers);
    expect(res.json().code).toBe(code);
    expect(await counts(h, ['block_list'])).toEqual(before);
  });

  it('refuses more than 1,000 numbers, a missing field and a non-string', async () => {
    const before = await counts(h, ['block_list']);
    const many = Array.from({ length: 1001 }, (_, i) => `3${String(200000000 + i)}`).join(',');
    expect((await add(many)).json().code).toBe('99931');
    expect((await h.op('blockList.add', { token: tokens.manager, body: {} })).json().code).toBe('99999');
    expect((await h.op('blockList.add', { token: tokens.manager, body: { numbers: 3001234567 } })).json().code).toBe('99931');
    expect(await counts(h, ['block_list'])).toEqual(before);
  });
});

describe('file uploads', () => {
  it('CSV with a header, commas, quotes and formula-looking cells (data, refused as phones)', async () => {
    const csv = `telefono,nombre\n3201110001,"Pérez, Ana"\n"3201110002",x\n${FORMULA},y\n\n"=HYPERLINK(""http://x"")",z\n,solo nombre\n`;
    const res = await upload('lista.csv', 'text/csv', Buffer.from(csv));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      added: 2,
      rejected: [
        { position: 4, value: FORMULA, reason: 'invalidPhone' },
        { position: 6, value: '=HYPERLINK("http://x")', reason: 'invalidPhone' },
        { position: 7, value: '', reason: 'emptyPhone' },
      ],
    });
    expect(await entryOf('+573201110001')).toMatchObject({ source: 'file', status: 'pending' });
  });

  it('CSV with semicolons in Latin-1 (Excel on Windows), and UTF-8 with a BOM', async () => {
    const latin1 = Buffer.from('Teléfono;Observación\r\n3201110003;Número de prueba\r\n3201110004;señal\r\n', 'latin1');
    expect((await upload('lista.csv', 'text/csv', latin1)).json()).toMatchObject({ added: 2, rejectedTotal: 0 });
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('número\n3201110005\n')]);
    expect((await upload('lista.csv', 'text/csv', bom)).json()).toMatchObject({ added: 1, rejectedTotal: 0 });
  });

  it('XLSX: numeric cells, text cells, a formula cell and a formula-looking text are judged as data', async () => {
    const bytes = xlsx([['Número'], [3201110006], ['320 111 0007'], [FORMULA], [3201110008]], (ws) => {
      ws.A6 = { t: 'n', v: 3201110009, f: 'A2+3' };
      ws['!ref'] = 'A1:A6';
    });
    const res = await upload('lista.xlsx', 'application/octet-stream', bytes);
    expect(res.json()).toMatchObject({
      added: 3,
      rejected: [{ position: 4, value: FORMULA, reason: 'invalidPhone' }, { position: 6, value: '=A2+3', reason: 'invalidPhone' }],
    });
    expect(await entryOf('+573201110009')).toBeUndefined();
  });

  it('XLS (BIFF8) is read too', async () => {
    const res = await upload('lista.xls', 'application/vnd.ms-excel', xlsx([['celular'], [3201110010]], undefined, 'biff8'));
    expect(res.json()).toMatchObject({ added: 1 });
  });

  it('crosses the insert chunks: 12,000 numbers in one file', async () => {
    const csv = Array.from({ length: 12000 }, (_, i) => String(3400000000 + i)).join('\n');
    const res = await upload('grande.csv', 'text/csv', Buffer.from(csv));
    expect(res.json()).toMatchObject({ added: 12000, rejectedTotal: 0 });
    // Stored: 12,000 rows (the list's total is bounded at 1,000).
    expect(await h.db.selectFrom('block_list').where('phone', 'like', '+57340%').select(({ fn }) => fn.countAll<string>().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n))).toBe(12000);
    expect((await h.op('blockList.list', { token: tokens.manager, query: { q: '340', pageSize: 1 } })).json()).toMatchObject({ total: 1000, totalIsEstimate: true });
  });

  it.each([
    // UTF-16 text is read as the recipients file reads it (tests/server/upload-intake.test.ts).
    ['a picture', 'lista.csv', PNG_1x1],
    ['an empty file', 'lista.csv', Buffer.alloc(0)],
    ['a broken XLSX', 'lista.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(64, 1)])],
  ])('refuses %s with 99932 and changes nothing', async (_, name, bytes) => {
    const before = await counts(h, ['block_list']);
    const res = await upload(name, 'text/csv', bytes);
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('99932');
    expect(await counts(h, ['block_list'])).toEqual(before);
  });

  it('refuses an XLSX that would inflate past the limit (zip bomb)', async () => {
    const bytes = xlsx([['celular'], [3201110012]]);
    // Declare 300 MB uncompressed for every entry of the central directory.
    for (let i = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); i !== -1; i = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), i + 4)) {
      bytes.writeUInt32LE(300 * 1024 * 1024, i + 24);
    }
    expect((await upload('bomba.xlsx', 'application/octet-stream', bytes)).json().code).toBe('99932');
  });

  it('refuses more than 100,000 rows (99932) and a file past 20 MB (413, 99937)', async () => {
    const before = await counts(h, ['block_list']);
    const rows = Array.from({ length: 100001 }, (_, i) => String(3500000000 + i)).join('\n');
    expect((await upload('filas.csv', 'text/csv', Buffer.from(rows))).json()).toMatchObject({ code: '99932', errors: [{ field: 'file' }] });
    const huge = await upload('enorme.csv', 'text/csv', Buffer.alloc(20 * 1024 * 1024 + 1, '3'));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('99937');
    expect(await counts(h, ['block_list'])).toEqual(before);
  });

  it('refuses a file with no valid phone (99963), a wrong field and a non-multipart body (99932)', async () => {
    const before = await counts(h, ['block_list']);
    expect((await upload('malos.csv', 'text/csv', Buffer.from(`telefono\n${FORMULA}\n123\n`))).json().code).toBe('99963');
    expect((await upload('vacio.csv', 'text/csv', Buffer.from('telefono\n\n'))).json().code).toBe('99960');
    expect((await h.op('blockList.upload', { token: tokens.manager, ...multipart('archivo', 'x.csv', 'text/csv', Buffer.from('3201110013')) })).json().code).toBe('99932');
    expect((await h.op('blockList.upload', { token: tokens.manager, body: { numbers: '3201110013' } })).json().code).toBe('99932');
    expect(await counts(h, ['block_list'])).toEqual(before);
  });
});

describe('the list', () => {
  it('pages, sorts by phone and searches by the first digits', async () => {
    const page = (await h.op('blockList.list', { token: tokens.manager, query: { sort: 'phone', pageSize: 3, q: '+57 320 111' } })).json();
    expect(page).toMatchObject({ page: 1, pageSize: 3 });
    expect(page.items.map((e: { phone: string }) => e.phone)).toEqual(['+573201110001', '+573201110002', '+573201110003']);
    expect(page.total).toBe(9);
    const desc = (await h.op('blockList.list', { token: tokens.manager, query: { sort: 'phone', order: 'desc', q: '57320111', pageSize: 1 } })).json();
    expect(desc.items[0].phone).toBe('+573201110010');
    expect((await h.op('blockList.list', { token: tokens.manager, query: { q: 'abc' } })).json()).toMatchObject({ items: [], total: 0 });
    expect((await h.op('blockList.list', { token: tokens.manager, query: { q: '%' } })).json()).toMatchObject({ total: 0 });
    const files = (await h.op('blockList.list', { token: tokens.manager, query: { source: 'file', q: '320111' } })).json();
    expect(files.total).toBe(9);
    for (const query of [{ status: 'removed' }, { sort: 'company_id' }, { source: 'api' }] as Record<string, string>[]) {
      expect((await h.op('blockList.list', { token: tokens.manager, query })).json().code).toBe('99931');
    }
  });
});

describe('permissions and company isolation', () => {
  it('analista and admin may not use the block list (99982)', async () => {
    const entry = (await list()).items[0];
    const before = await counts(h, ['block_list']);
    for (const role of ['analista', 'admin']) {
      const { token } = await h.as(role);
      for (const res of [
        await h.op('blockList.list', { token }),
        await add('3209990001', token),
        await upload('x.csv', 'text/csv', Buffer.from('3209990001'), token),
        await h.op('blockList.remove', { token, params: { id: entry.id } }),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('99982');
      }
    }
    expect(await counts(h, ['block_list'])).toEqual(before);
  });

  it("another company's entries are invisible and cannot be removed (99959)", async () => {
    const entry = (await list()).items[0];
    const other = await otherCompany(h);
    expect((await h.op('blockList.list', { token: other.token })).json()).toMatchObject({ items: [], total: 0 });
    expect((await h.op('blockList.remove', { token: other.token, params: { id: entry.id } })).json().code).toBe('99959');
    expect(await entryOf(entry.phone)).toMatchObject({ removalRequestedAt: null });
    // The same number on the other company's list is its own entry.
    expect((await add(entry.phone.slice(3), other.token)).json().added).toBe(1);
  });
});
