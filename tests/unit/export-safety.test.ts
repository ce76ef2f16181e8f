// given/want tables for the spreadsheet export rules (src/core/export-safety.ts).
import { describe, expect, it } from 'vitest';
import { BOM, csvField, exportFileName, safeCell, toCsv, toSheetRows } from '../../src/core/export-safety.ts';

describe('safeCell: text that a spreadsheet would run gets a leading apostrophe', () => {
  const table: [unknown, unknown][] = [
    ['=1+1', "'=1+1"],
    ['+573001234567', "'+573001234567"],
    ['-2', "'-2"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=cmd', "'\t=cmd"],
    ['\r=cmd', "'\r=cmd"],
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ['Bogotá', 'Bogotá'],
    ['a=b', 'a=b'],
    [' =1', ' =1'],
    ['', ''],
    [-5, -5],
    [12.5, 12.5],
    [Number.NaN, null],
    [true, true],
    [null, null],
    [undefined, null],
    [['manager', 'admin'], 'manager, admin'],
    [['=x', 'y'], "'=x, y"],
    [{ a: 1 }, '{"a":1}'],
  ];
  it.each(table)('%j -> %j', (given, want) => expect(safeCell(given)).toEqual(want));
});

describe('csvField escapes like RFC 4180', () => {
  const table: [unknown, string, string][] = [
    ['plain', ',', 'plain'],
    ['a,b', ',', '"a,b"'],
    ['a;b', ',', 'a;b'],
    ['a;b', ';', '"a;b"'],
    ['say "hi"', ',', '"say ""hi"""'],
    ['two\nlines', ',', '"two\nlines"'],
    [' padded', ',', '" padded"'],
    ['=HYPERLINK("http://x")', ',', '"\'=HYPERLINK(""http://x"")"'],
    [null, ',', ''],
    [1250000, ',', '1250000'],
  ];
  it.each(table)('%j with %j -> %j', (given, sep, want) => expect(csvField(given, sep)).toBe(want));
});

describe('toCsv writes the "excel type" CSV', () => {
  it('BOM, header row, CRLF line ends, safe cells', () => {
    const csv = toCsv(['Nombre', 'Teléfono'], [['Ana', '+573001234567'], ['=evil()', null]]);
    expect(csv.startsWith(BOM)).toBe(true);
    expect(csv.slice(1)).toBe("Nombre,Teléfono\r\nAna,'+573001234567\r\n'=evil(),\r\n");
  });
  it('can leave the BOM out and use semicolons', () => {
    expect(toCsv(['a', 'b'], [[1, 'x;y']], { bom: false, separator: ';' })).toBe('a;b\r\n1;"x;y"\r\n');
  });
});

describe('toSheetRows', () => {
  it('puts the header first, text as written (a typed cell is never a formula), numbers stay numbers', () => {
    // An XLSX cell is typed: text is text, never a formula, so it goes as written (a phone without an apostrophe).
    expect(toSheetRows(['h', '=h'], [[1, '@x'], [true, undefined], ['+573001234567', null]])).toEqual([['h', '=h'], [1, '@x'], [true, null], ['+573001234567', null]]);
  });
});

describe('exportFileName', () => {
  const at = new Date(2025, 5, 2, 9, 5);
  it.each([
    ['teamMembers', 'csv', 'teamMembers-20250602-0905.csv'],
    ['../../etc/passwd', 'xlsx', 'etc-passwd-20250602-0905.xlsx'],
    ['', 'csv', 'export-20250602-0905.csv'],
  ] as const)('%j.%s', (base, ext, want) => expect(exportFileName(base, ext, at)).toBe(want));
});
