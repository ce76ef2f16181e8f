// SheetJS reads run in a worker thread with a time and a memory limit (engine/recipients/sheet-thread.ts):
// past either the parse is stopped and refused as too large to read (99937), and the server's own
// thread is untouched.
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { RecipientsFileError } from '../../src/engine/recipients/errors.ts';
import { defaultSheetThreadLimits, runSheetJob } from '../../src/engine/recipients/sheet-thread.ts';

function xlsx(rows: string[][]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Hoja1');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Uint8Array;
}

describe('spreadsheet reads in a worker thread', () => {
  it('reads the first column in the worker', async () => {
    const result = await runSheetJob({ kind: 'firstColumn', bytes: xlsx([['celular'], ['3201110301']]), maxRows: 10 });
    expect(result).toEqual({ kind: 'firstColumn', values: [{ position: 1, value: 'celular' }, { position: 2, value: '3201110301' }] });
  });

  it('a read past its time is stopped and refused (99937)', async () => {
    // The worker cannot even start within a millisecond: the limit is what answers.
    const read = runSheetJob({ kind: 'firstColumn', bytes: xlsx([['3201110301']]), maxRows: 10 }, { ...defaultSheetThreadLimits, timeoutMs: 1 });
    await expect(read).rejects.toBeInstanceOf(RecipientsFileError);
    await expect(read).rejects.toMatchObject({ code: '99937', message: expect.stringMatching(/longer than/) });
  });

  it('past the readers and their queue, one more read is refused at once (99933)', async () => {
    const limits = { ...defaultSheetThreadLimits, concurrency: 1, maxWaiting: 0 };
    const first = runSheetJob({ kind: 'firstColumn', bytes: xlsx([['3201110301']]), maxRows: 10 }, limits);
    await expect(runSheetJob({ kind: 'firstColumn', bytes: xlsx([['3201110302']]), maxRows: 10 }, limits)).rejects.toMatchObject({ code: '99933' });
    expect((await first).kind).toBe('firstColumn');
  });

  it('a read past its memory is stopped and refused (99937)', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => [`fila ${i} ${'x'.repeat(40)}`, String(i)]);
    const read = runSheetJob({ kind: 'firstColumn', bytes: xlsx(rows), maxRows: 100_000 }, { ...defaultSheetThreadLimits, maxMemoryMb: 4 });
    await expect(read).rejects.toMatchObject({ code: '99937', message: expect.stringMatching(/memory/) });
  });
});
