// Campaign recipients rows (src/engine/recipients): phones, variables, headers, duplicates,
// schedule dates and URLs; what pass, warn, fail and error mean for each.
import { describe, expect, it } from 'vitest';
import { judgePhone, parseScheduleDate, RecipientsFileError } from '../../src/engine/recipients/index.ts';
import { brief, ingest } from '../fixtures/recipients/helpers.ts';

describe('judgePhone (Colombia)', () => {
  it.each([
    ['3001234567', '+573001234567', undefined, false],
    ['+573001234567', '+573001234567', undefined, true],
    ['573001234567', '+573001234567', undefined, true],
    ['+57 300 123 4567', '+573001234567', undefined, true],
    ['300-123-4567', '+573001234567', undefined, true],
    ['(300) 123 4567', '+573001234567', undefined, true],
    // Spaces around the number are invisible in a spreadsheet: not worth a warn.
    [' 3001234567 ', '+573001234567', undefined, false],
    ['00573001234567', '+573001234567', undefined, true],
    ['', null, 'emptyPhone', undefined],
    ['   ', null, 'emptyPhone', undefined],
    ['300123456', null, 'invalidPhone', undefined],
    ['30012345678', null, 'invalidPhone', undefined],
    ['03001234567', null, 'invalidPhone', undefined],
    ['abc', null, 'invalidPhone', undefined],
    ['3,00123E+09', null, 'invalidPhone', undefined],
    ["=cmd|' /C calc'!A0", null, 'invalidPhone', undefined],
    ['+13055551234', null, 'invalidCountryCode', undefined],
    ['+52 55 1234 5678', null, 'invalidCountryCode', undefined],
    ['6012345678', null, 'invalidPhone', undefined],
  ])('%j -> %s %s', (raw, phone, code, normalized) => {
    const got = judgePhone(raw, false);
    expect(got.phone).toBe(phone);
    expect(got.code).toBe(code);
    if (normalized !== undefined) expect(Boolean(got.normalized)).toBe(normalized);
  });

  it('fixed lines (60X…) cannot receive SMS: invalidPhone with fixedLine; allowed when told', () => {
    expect(judgePhone('6012345678', false)).toEqual({ phone: null, code: 'invalidPhone', fixedLine: true });
    expect(judgePhone('6012345678', true)).toEqual({ phone: '+576012345678' });
  });
});

describe('rows: pass, warn, fail, error', () => {
  const file = [
    'Teléfono,Nombre,Ciudad,Notas',
    '3001234567,Ana,Bogotá,x', // 2 pass
    '+573109876543,Juan,Cali,', // 3 warn: normalised
    '573201112233,Luz,,', // 4 warn: normalised, ciudad optional and empty
    '3001234567,Ana otra vez,Pasto,', // 5 warn: duplicate of row 2, not sent
    '6012345678,Fijo,Bogotá,', // 6 fail: fixed line
    ',Sin número,Bogotá,', // 7 fail: empty phone
    '3151234567,,Bogotá,', // 8 fail: required variable empty
    '+13055551234,Gringo,Miami,', // 9 fail: country code
    '"3161234567"x,Mal,Bogotá,', // 10 error: malformed quotes
    '', // 11 blank: skipped
    ',,,', // 12 blank: skipped
    '3171234567,=HYPERLINK("http://x.co"),<b>Bogotá</b>,', // 13 pass: hostile-looking data is data
  ].join('\n');

  it('judges every row and counts them in the summary', async () => {
    const { rows, summary } = await ingest(file, { variables: ['nombre'], optionalVariables: ['ciudad'] });
    expect(brief(rows)).toEqual([
      [2, 'pass', '+573001234567', ''],
      [3, 'warn', '+573109876543', 'phoneNormalized'],
      [4, 'warn', '+573201112233', 'phoneNormalized,emptyOptionalValue'],
      [5, 'warn', '+573001234567', 'duplicatePhone'],
      [6, 'fail', null, 'invalidPhone,fixedLine'],
      [7, 'fail', null, 'emptyPhone'],
      [8, 'fail', '+573151234567', 'requiredValue'],
      [9, 'fail', null, 'invalidCountryCode'],
      [10, 'error', null, 'malformedQuotes'],
      [13, 'pass', '+573171234567', ''],
    ]);
    expect(rows.map((r) => r.send)).toEqual([true, true, true, false, false, false, false, false, false, true]);
    expect(rows[3].duplicateOf).toBe(2);
    expect(rows[6].problems).toEqual([{ code: 'requiredValue', column: 'Nombre' }]);
    expect(rows[9].variables).toEqual({ nombre: '=HYPERLINK("http://x.co")', ciudad: '<b>Bogotá</b>' });
    expect(rows[4].cells).toEqual(['6012345678', 'Fijo', 'Bogotá', '']);
    expect(rows[0].cells).toBeUndefined();
    expect(summary).toMatchObject({
      format: 'csv', separator: ',', headers: ['Teléfono', 'Nombre', 'Ciudad', 'Notas'], hasHeader: true, phoneColumn: 'Teléfono',
      ignoredColumns: ['Notas'], totalRows: 10, pass: 2, warn: 3, fail: 4, error: 1, duplicates: 1, sendable: 4, done: true,
    });
  });

  it('fixed lines pass when the channel can reach them', async () => {
    const { rows } = await ingest('telefono\n6012345678\n', { allowFixedLines: true });
    expect(brief(rows)).toEqual([[2, 'pass', '+576012345678', '']]);
  });
});

describe('headers', () => {
  const fails = async (text: string, options: Parameters<typeof ingest>[1]) => {
    const error = await ingest(text, options).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(RecipientsFileError);
    return error as RecipientsFileError;
  };

  it('variables match headers whatever the case, accents, spaces or braces', async () => {
    const { rows } = await ingest('CELULAR;{{Nombre Cliente}};CIUDAD\n3001234567;Ana;Bogotá\n', { variables: ['nombre_cliente', 'ciudad'] });
    expect(rows[0].variables).toEqual({ nombre_cliente: 'Ana', ciudad: 'Bogotá' });
  });

  it.each(['phone', 'Teléfono', 'TELEFONO', 'celular', 'Número', 'numero', 'móvil', 'Movil'])('%s is the phone column', async (header) => {
    const { summary } = await ingest(`nombre,${header}\nAna,3001234567\n`, { variables: ['nombre'] });
    expect(summary.phoneColumn).toBe(header);
  });

  it('a missing variable column is invalidHeaders (99955) naming the missing ones', async () => {
    const error = await fails('telefono,nombre\n3001234567,Ana\n', { variables: ['nombre', 'ciudad', 'cupón'] });
    expect(error).toMatchObject({ code: '99955', problem: 'invalidHeaders', columns: ['ciudad', 'cupón'] });
    expect(error.status).toBe(422);
    expect(error.message).toContain('ciudad, cupón');
  });

  it('repeated headers are invalidHeaders naming them', async () => {
    const error = await fails('telefono,Nombre,nombre \n3001234567,Ana,Ana\n', { variables: ['nombre'] });
    expect(error).toMatchObject({ code: '99955', problem: 'invalidHeaders', columns: ['Nombre', 'nombre'] });
  });

  it('no phone column, or several, is invalidHeaders; a chosen column settles it', async () => {
    expect(await fails('nombre,ciudad\nAna,Cali\n', { variables: ['nombre'] })).toMatchObject({ problem: 'invalidHeaders', columns: ['phone'] });
    expect(await fails('telefono,celular\n6012345678,3001234567\n', {})).toMatchObject({ problem: 'invalidHeaders', columns: ['telefono', 'celular'] });
    const { rows } = await ingest('telefono,celular\n6012345678,3001234567\n', { phoneColumn: 'celular' });
    expect(rows[0].phone).toBe('+573001234567');
    const byIndex = await ingest('a,b\nx,3001234567\n', { phoneColumn: 1 });
    expect(byIndex.rows[0].phone).toBe('+573001234567');
  });

  it('a header that is a variable is not taken for the phone', async () => {
    const { rows } = await ingest('celular,numero\n3001234567,Pedido 12\n', { variables: ['numero'] });
    expect(rows[0]).toMatchObject({ phone: '+573001234567', variables: { numero: 'Pedido 12' } });
  });

  it('a number-only CSV without a header is valid when the message has no variables', async () => {
    const { rows, summary } = await ingest('3001234567\n+57 310 987 6543\n\n3001234567\n');
    expect(summary).toMatchObject({ hasHeader: false, headers: [], phoneColumn: null, totalRows: 3 });
    expect(brief(rows)).toEqual([[1, 'pass', '+573001234567', ''], [2, 'warn', '+573109876543', 'phoneNormalized'], [4, 'warn', '+573001234567', 'duplicatePhone']]);
  });

  it('a number-only CSV has exactly one column: a row with a second value is an error', async () => {
    const { rows } = await ingest('3001234567\n3109876543,Ana\n');
    expect(brief(rows)).toEqual([[1, 'pass', '+573001234567', ''], [2, 'error', null, 'tooManyCells']]);
  });

  it('a number-only CSV when the message has variables is invalidHeaders', async () => {
    expect(await fails('3001234567\n3109876543\n', { variables: ['nombre'] })).toMatchObject({ problem: 'invalidHeaders', columns: ['nombre'] });
  });

  it('a file of one column with a header: that column is the phone, whatever its name', async () => {
    for (const header of ['telefono', 'Clientes']) {
      const { rows, summary } = await ingest(`${header}\n3001234567\n`);
      expect(summary).toMatchObject({ hasHeader: true, phoneColumn: header });
      expect(brief(rows)).toEqual([[2, 'pass', '+573001234567', '']]);
    }
  });

  it('a header without rows, or an empty file, is refused', async () => {
    expect(await fails('telefono,nombre\n', { variables: ['nombre'] })).toMatchObject({ code: '99932' });
    expect(await fails('\n\n', {})).toMatchObject({ code: '99932' });
  });
});

describe('schedule dates and URLs', () => {
  const now = new Date('2025-06-10T15:00:00Z'); // 10:00 in Bogotá

  it.each([
    ['2025-06-30 08:30', '2025-06-30T13:30:00.000Z', false],
    ['2025-06-30T08:30:15', '2025-06-30T13:30:15.000Z', false],
    ['30/06/2025 8:30', '2025-06-30T13:30:00.000Z', false],
    ['30/06/2025 2:05 p. m.', '2025-06-30T19:05:00.000Z', false],
    ['30/06/2025 12:00 am', '2025-06-30T05:00:00.000Z', false],
    ['30/06/2025', '2025-06-30T05:00:00.000Z', true],
  ])('%s (Bogotá) -> %s', (text, iso, dateOnly) => {
    expect(parseScheduleDate(text)).toEqual({ at: new Date(iso), dateOnly });
  });

  it.each(['31/02/2025', '2025-13-01', 'mañana', '30/06/2025 25:00', '13:00'])('%s is not a date', (text) => {
    expect(parseScheduleDate(text)).toBeNull();
  });

  it('a schedule column: future and today pass, past or unreadable fail invalidScheduleDate', async () => {
    const text = 'telefono,fecha_envio\n3001234567,2025-06-30 08:00\n3001234568,10/06/2025\n3001234569,2025-06-10 09:59\n3001234570,pronto\n3001234571,\n';
    const { rows, summary } = await ingest(text, { now });
    expect(summary.scheduleColumn).toBe('fecha_envio');
    expect(rows.map((r) => [r.row, r.result, r.scheduleAt ?? null, r.problems.map((p) => p.code).join()])).toEqual([
      [2, 'pass', '2025-06-30T13:00:00.000Z', ''],
      [3, 'pass', '2025-06-10T05:00:00.000Z', ''],
      [4, 'fail', null, 'invalidScheduleDate'],
      [5, 'fail', null, 'invalidScheduleDate'],
      [6, 'pass', null, ''],
    ]);
  });

  it('URL variables must be http(s): invalidUrl', async () => {
    const text = 'telefono,nombre,link\n3001234567,Ana,https://colibri.co/p?x=1\n3001234568,Luz,javascript:alert(1)\n3001234569,Leo,www.sin-protocolo.co\n';
    const { rows } = await ingest(text, { variables: ['nombre', 'link'] });
    expect(brief(rows)).toEqual([[2, 'pass', '+573001234567', ''], [3, 'fail', '+573001234568', 'invalidUrl'], [4, 'fail', '+573001234569', 'invalidUrl']]);
  });
});
