// src/core/phone-list.ts: typed lists, CSV first columns and text encodings of uploads.
import { describe, expect, it } from 'vitest';
import { csvFirstColumn, csvSeparator, looksLikeHeader, parsePhoneList, splitPastedNumbers } from '../../src/core/phone-list.ts';

describe('parsePhoneList', () => {
  it('judges every item: valid (E.164, once), invalid, empty, repeated', () => {
    expect(parsePhoneList("3001234567, +57 310 987 6543;abc,,300-123-4567\n=cmd|' /C calc'!A0,")).toEqual({
      valid: [{ position: 1, phone: '+573001234567' }, { position: 2, phone: '+573109876543' }],
      rejected: [
        { position: 3, value: 'abc', reason: 'invalidPhone' },
        { position: 4, value: '300-123-4567', reason: 'duplicate' },
        { position: 5, value: "=cmd|' /C calc'!A0", reason: 'invalidPhone' },
      ],
    });
  });

  it('reports blank items between separators, not a trailing separator', () => {
    expect(parsePhoneList('3001234567, ,').rejected).toEqual([{ position: 2, value: '', reason: 'emptyPhone' }]);
    expect(parsePhoneList('')).toEqual({ valid: [], rejected: [{ position: 1, value: '', reason: 'emptyPhone' }] });
  });

  it('cuts echoed values to 40 characters', () => {
    expect(parsePhoneList('x'.repeat(500)).rejected[0].value).toHaveLength(40);
  });
});

describe('csvSeparator and csvFirstColumn', () => {
  it.each([
    ['a,b;c\n', ','],
    ['a;b;c,d\n', ';'],
    ['3001234567\n', ','],
  ])('%j -> %s', (text, want) => {
    expect(csvSeparator(text)).toBe(want);
  });

  it('takes the first field of each record, honouring quotes, CRLF and blank lines', () => {
    const text = 'telefono,nombre\r\n"300,1",x\r\n"say ""hi""",y\n\n  \n,z\n"multi\nline",w\n3001234567';
    expect(csvFirstColumn(text, ',')).toEqual([
      { position: 1, value: 'telefono' },
      { position: 2, value: '300,1' },
      { position: 3, value: 'say "hi"' },
      { position: 6, value: '' },
      { position: 7, value: 'multi\nline' },
      { position: 8, value: '3001234567' },
    ]);
  });

  it('stops after maxRecords', () => {
    expect(csvFirstColumn('1\n2\n3\n4\n', ',', 2)).toEqual([{ position: 1, value: '1' }, { position: 2, value: '2' }]);
  });

  it('semicolon files keep commas inside the first field', () => {
    expect(csvFirstColumn('300 123,4567;nombre\n', ';')).toEqual([{ position: 1, value: '300 123,4567' }]);
  });
});

describe('looksLikeHeader', () => {
  it.each([['telefono', true], ['Número', true], ['3001234567', false], ["=cmd|' /C calc'!A0", false]])('%s -> %s', (value, want) => {
    expect(looksLikeHeader(value)).toBe(want);
  });
});

describe('splitPastedNumbers (recipients pasted instead of a file)', () => {
  it('splits on lines, commas, semicolons and spaces, keeping a number written in groups whole', () => {
    expect(splitPastedNumbers('3001234501, +57 300 123 4502; 573001234503\n300 123 4504 3001234505\r\n\n12345 +1 2025550123')).toEqual([
      '3001234501', '+57 300 123 4502', '573001234503', '300 123 4504', '3001234505', '12345', '+1', '2025550123',
    ]);
    expect(splitPastedNumbers('3001234501 3109876543')).toEqual(['3001234501', '3109876543']);
    expect(splitPastedNumbers('0057 300 123 4567')).toEqual(['0057 300 123 4567']);
  });

  it('reads nothing from blanks and separators only', () => {
    expect(splitPastedNumbers('')).toEqual([]);
    expect(splitPastedNumbers(' ,;\n\t ')).toEqual([]);
  });
});
