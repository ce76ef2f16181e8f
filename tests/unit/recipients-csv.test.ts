// Campaign recipients CSV files (src/engine/recipients): separators, RFC 4180 quoting, line
// ends, encodings, chunk boundaries and bounded memory for hostile cells.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CsvTokenizer, type CsvRecord } from '../../src/engine/recipients/csv-stream.ts';
import { StreamingTextDecoder } from '../../src/engine/recipients/text-decode.ts';
import { RecipientsFileError } from '../../src/engine/recipients/index.ts';
import { brief, chunks, ingest } from '../fixtures/recipients/helpers.ts';

function tokenize(text: string, separator: ',' | ';' = ',', chunk = text.length || 1, maxCellChars = 4096): CsvRecord[] {
  const t = new CsvTokenizer(separator, maxCellChars);
  const out: CsvRecord[] = [];
  for (let i = 0; i < text.length; i += chunk) t.push(text.slice(i, i + chunk), out);
  t.end(out);
  return out;
}

describe('CsvTokenizer', () => {
  const text = 'telefono,nombre\r\n"300,1","say ""hi"""\n"multi\r\nline",x\r3001234567,\n\n5" pantalla,y';
  const want = [
    { row: 1, cells: ['telefono', 'nombre'] },
    { row: 2, cells: ['300,1', 'say "hi"'] },
    { row: 3, cells: ['multi\r\nline', 'x'] },
    { row: 4, cells: ['3001234567', ''] },
    { row: 5, cells: [''] },
    { row: 6, cells: ['5" pantalla', 'y'] },
  ];
  it.each([1, 2, 3, 7, 64, 100000])('reads quotes, CRLF/LF/CR and blank lines the same in chunks of %i', (chunk) => {
    expect(tokenize(text, ',', chunk)).toEqual(want);
  });

  it('semicolon files keep commas as text', () => {
    expect(tokenize('a;b,c;"d;e"\n', ';')).toEqual([{ row: 1, cells: ['a', 'b,c', 'd;e'] }]);
  });

  it('text after a closing quote and a quote never closed are malformed rows; the next rows still read', () => {
    expect(tokenize('"ab"c,x\n3001234567,y\n"open,z\n')).toEqual([
      { row: 1, cells: ['abc', 'x'], problem: 'malformedQuotes' },
      { row: 2, cells: ['3001234567', 'y'] },
      { row: 3, cells: ['open,z\n'], problem: 'malformedQuotes' },
    ]);
  });

  it('a cell longer than the cap is cut and flagged', () => {
    expect(tokenize(`${'x'.repeat(20)},y\nok,z\n`, ',', 5, 10)).toEqual([
      { row: 1, cells: ['x'.repeat(10), 'y'], problem: 'cellTooLong' },
      { row: 2, cells: ['ok', 'z'] },
    ]);
  });

  it('a record past the record cap is skipped to its end without keeping it (quoted newlines included)', () => {
    const huge = `"${'a\n'.repeat(50_000)}",x\n3001234567,y\n`;
    expect(tokenize(huge, ',', 4096, 100)).toEqual([
      { row: 1, cells: [], problem: 'cellTooLong' },
      { row: 2, cells: ['3001234567', 'y'] },
    ]);
  });
});

describe('StreamingTextDecoder', () => {
  const decodeAll = (bytes: Uint8Array, size: number) => {
    const d = new StreamingTextDecoder();
    let text = '';
    for (let i = 0; i < bytes.length; i += size) text += d.decode(bytes.subarray(i, i + size));
    text += d.decode(new Uint8Array(0), true);
    return { text, encoding: d.encoding, uncertain: d.uncertain };
  };
  const utf16be = (s: string) => { const le = Buffer.from(s, 'utf16le'); for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]]; return le; };
  it.each([
    ['UTF-8', Buffer.from('teléfono;Ñoño\n'), 'utf-8'],
    ['UTF-8 with BOM', Buffer.from('\ufeffteléfono;Ñoño\n'), 'utf-8'],
    ['Windows-1252', Buffer.from('teléfono;Ñoño\n', 'latin1'), 'windows-1252'],
    ['UTF-16 LE with BOM', Buffer.from('\ufeffteléfono;Ñoño\n', 'utf16le'), 'utf-16le'],
    ['UTF-16 BE with BOM', utf16be('\ufeffteléfono;Ñoño\n'), 'utf-16be'],
    ['UTF-16 LE without BOM', Buffer.from('telefono;Ñoño\n3001234567;x\n', 'utf16le'), 'utf-16le'],
  ])('%s, in chunks of 1 and 4096 bytes', (_, bytes, encoding) => {
    for (const size of [1, 4096]) {
      const got = decodeAll(bytes, size);
      expect(got.text).toMatch(/^tel[eé]fono;Ñoño\n/);
      expect(got.encoding).toBe(encoding);
      expect(got.uncertain).toBe(false);
    }
  });

  it('a UTF-8 character split across chunks decodes whole', () => {
    expect(decodeAll(Buffer.from('ñ'.repeat(1000)), 3).text).toBe('ñ'.repeat(1000));
  });

  it('ASCII first, Windows-1252 later: Windows-1252 from the start, certain', () => {
    const bytes = Buffer.concat([Buffer.from('a\n'.repeat(10000)), Buffer.from('Bogotá\n', 'latin1')]);
    expect(decodeAll(bytes, 4096)).toEqual({ text: `${'a\n'.repeat(10000)}Bogotá\n`, encoding: 'windows-1252', uncertain: false });
  });

  it('valid UTF-8 first, invalid later: read as Windows-1252 from there, uncertain', () => {
    const bytes = Buffer.concat([Buffer.from('Medellín\n'), Buffer.from('x\n'.repeat(5000)), Buffer.from('Bogotá\n', 'latin1')]);
    const got = decodeAll(bytes, 1024);
    expect(got.encoding).toBe('windows-1252');
    expect(got.uncertain).toBe(true);
    expect(got.text.startsWith('Medellín\n')).toBe(true);
    expect(got.text.endsWith('Bogotá\n')).toBe(true);
  });

  it('binary content is not text: 99932', () => {
    const d = new StreamingTextDecoder();
    expect(() => d.decode(Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 5]), true)).toThrow(RecipientsFileError);
  });
});

describe('ingestRecipients on CSV files', () => {
  it.each([
    ['comma', 'telefono,nombre\n3001234567,Ana\n', ','],
    ['semicolon', 'telefono;nombre\n3001234567;Ana\n', ';'],
    ['semicolon header with a quoted comma', '"tel,efono";nombre;"a,b"\n3001234567;Ana;x\n', ';'],
    ['comma header with quoted semicolons', '"a;b;c",telefono,nombre\nx,3001234567,Ana\n', ','],
  ])('%s', async (_, text, separator) => {
    const { rows, summary } = await ingest(text, { variables: ['nombre'], phoneColumn: text.startsWith('"tel') ? 0 : 'auto' });
    expect(summary.separator).toBe(separator);
    expect(rows).toEqual([{ row: 2, phone: '+573001234567', variables: { nombre: 'Ana' }, result: 'pass', problems: [], send: true }]);
  });

  it('quoted separators and line breaks inside quotes stay in the cell; rows are spreadsheet rows', async () => {
    const { rows } = await ingest('telefono;nombre;direccion\r\n3001234567;"Pérez; Ana";"Calle 1\r\nApto 2"\r\n3109876543;"Dijo ""hola""";x\r\n', { variables: ['nombre', 'direccion'], chunk: 5 });
    expect(rows.map((r) => [r.row, r.variables])).toEqual([
      [2, { nombre: 'Pérez; Ana', direccion: 'Calle 1\r\nApto 2' }],
      [3, { nombre: 'Dijo "hola"', direccion: 'x' }],
    ]);
  });

  it('a UTF-8 BOM is not part of the first header', async () => {
    const { summary, rows } = await ingest('\ufefftelefono,nombre\r\n3001234567,Ana\r\n', { variables: ['nombre'] });
    expect(summary.headers).toEqual(['telefono', 'nombre']);
    expect(rows[0].result).toBe('pass');
  });

  it('UTF-16 LE with a BOM (Excel "Unicode text")', async () => {
    const { summary, rows } = await ingest(Buffer.from('\ufeffteléfono;ciudad\r\n3001234567;Bogotá\r\n', 'utf16le'), { variables: ['ciudad'], chunk: 3 });
    expect(summary.encoding).toBe('utf-16le');
    expect(rows[0].variables).toEqual({ ciudad: 'Bogotá' });
  });

  it('Windows-1252 "Ñoño" / "Bogotá" (the committed fixture, as Excel on Windows saves it)', async () => {
    const bytes = readFileSync(new URL('../fixtures/recipients/windows-1252.csv', import.meta.url));
    const { summary, rows } = await ingest(bytes, { variables: ['nombre', 'ciudad'] });
    expect(summary).toMatchObject({ encoding: 'windows-1252', encodingUncertain: false, separator: ';', headers: ['Teléfono', 'Nombre', 'Ciudad'] });
    expect(rows.map((r) => r.variables)).toEqual([{ nombre: 'Ñoño', ciudad: 'Bogotá' }, { nombre: 'José', ciudad: 'Medellín' }]);
  });

  it('an encoding that changes part-way: later rows are warn undecidedEncoding', async () => {
    const bytes = Buffer.concat([Buffer.from('telefono,ciudad\n3001234567,Medellín\n'), Buffer.from('3001234568,x\n'.repeat(2000)), Buffer.from('3109876543,Bogotá\n', 'latin1')]);
    const { summary, rows } = await ingest(bytes, { variables: ['ciudad'], chunk: 4096 });
    expect(summary.encodingUncertain).toBe(true);
    expect(rows[0].result).toBe('pass');
    const last = rows[rows.length - 1];
    expect(last.variables.ciudad).toBe('Bogotá');
    expect(last.problems).toContainEqual({ code: 'undecidedEncoding' });
    expect(last.result).toBe('warn');
  });

  it('a 10 MB single cell is an error row, read in bounded memory; the rows after it are read', async () => {
    async function* source() {
      yield Buffer.from('telefono,nombre\n3001234567,"');
      const piece = Buffer.alloc(65536, 'a');
      for (let i = 0; i < 160; i++) yield piece;
      yield Buffer.from('"\n3109876543,Ana\n');
    }
    const { rows } = await ingest(source(), { variables: ['nombre'] });
    expect(brief(rows)).toEqual([[2, 'error', null, 'cellTooLong'], [3, 'pass', '+573109876543', '']]);
  });

  it.each([['quoted', '"'], ['unquoted', '']])('a 10 MB %s cell never holds more than the record cap', (_, quote) => {
    const t = new CsvTokenizer(',', 4096);
    const out: CsvRecord[] = [];
    t.push(`telefono,nombre\n3001234567,${quote}`, out);
    let most = 0;
    const piece = 'a'.repeat(65536);
    for (let i = 0; i < 160; i++) { t.push(piece, out); most = Math.max(most, t.pendingChars); }
    t.push(`${quote}\n3109876543,Ana\n`, out);
    t.end(out);
    expect(most).toBeLessThanOrEqual(65536);
    expect(out).toEqual([{ row: 1, cells: ['telefono', 'nombre'] }, { row: 2, cells: [], problem: 'cellTooLong' }, { row: 3, cells: ['3109876543', 'Ana'] }]);
  });

  it('a cell over maxCellChars in a normal-size row is an error row with the cut cells for the report', async () => {
    const { rows } = await ingest(`telefono,nombre\n3001234567,${'n'.repeat(5000)}\n`, { variables: ['nombre'] });
    expect(brief(rows)).toEqual([[2, 'error', null, 'cellTooLong']]);
    expect(rows[0].cells?.[1]).toHaveLength(4096);
  });

  it('more cells than headers is an error row (the values would be shifted); empty extra cells are not', async () => {
    const { rows } = await ingest('telefono,nombre\n3001234567,Pérez, Juan\n3109876543,Ana,,\n', { variables: ['nombre'] });
    expect(brief(rows)).toEqual([[2, 'error', null, 'tooManyCells'], [3, 'pass', '+573109876543', '']]);
  });

  it('streams: rows come before the file has been read to its end', async () => {
    let sent = 0;
    async function* slow() {
      yield Buffer.from('telefono\n');
      for (let i = 0; i < 100; i++) { sent++; yield Buffer.from(`30012345${String(i).padStart(2, '0')}\n`); }
    }
    const run = (await import('../../src/engine/recipients/index.ts')).ingestRecipients(slow(), { fileName: 'x.csv' });
    const it = run[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value?.row).toBe(2);
    expect(sent).toBeLessThan(100);
    await it.return?.(undefined);
  });

  it('reports progress with the declared total', async () => {
    const seen: [number, number | null][] = [];
    const text = 'telefono\n' + '3001234567\n'.repeat(100);
    await ingest(text, { chunk: 256, declaredBytes: text.length, onProgress: (b, t) => seen.push([b, t]) });
    expect(seen.length).toBe(Math.ceil(text.length / 256));
    expect(seen[seen.length - 1]).toEqual([text.length, text.length]);
    expect(seen.every(([b], i) => i === 0 || b > seen[i - 1][0])).toBe(true);
  });

  it('chunks of one byte give the same rows as one chunk', async () => {
    const text = 'Teléfono;Nombre\r\n+57 300 123 4567;"Ana; María"\r\n6012345678;Fijo\r\n;Vacío\r\n';
    const whole = await ingest(text, { variables: ['nombre'] });
    const bytewise = await ingest(chunks(text, 1), { variables: ['nombre'] });
    expect(bytewise.rows).toEqual(whole.rows);
    expect(brief(whole.rows)).toEqual([[2, 'warn', '+573001234567', 'phoneNormalized'], [3, 'fail', null, 'invalidPhone,fixedLine'], [4, 'fail', null, 'emptyPhone']]);
  });
});
