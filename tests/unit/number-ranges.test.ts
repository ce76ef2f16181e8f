import { describe, expect, it } from 'vitest';
import { expandRanges } from '../../src/core/number-ranges.ts';

describe('a saved list of numbers and ranges', () => {
  it('reads numbers and ranges as people write them, each number once, in order', () => {
    const r = expandRanges('300 123 4500 - 300 123 4502\n+57 310 555 0000, 3001234501;3105550001-3105550002', 1000);
    expect(r.problems).toEqual([]);
    expect(r.numbers).toEqual(['+573001234500', '+573001234501', '+573001234502', '+573105550000', '+573105550001', '+573105550002']);
  });

  it('says which entry could not be read and why, and never expands past the limit', () => {
    const r = expandRanges('3001234599-3001234500\n3001230000-6011234567\nabc\n3001230000-3001239999', 1000);
    expect(r.problems).toEqual([
      { entry: '3001234599-3001234500', reason: 'reversedRange' },
      { entry: '3001230000-6011234567', reason: 'mixedRange' },
      { entry: 'abc', reason: 'invalidNumber' },
      { entry: '3001230000-3001239999', reason: 'tooMany' },
    ]);
    expect(r.numbers).toEqual([]);
    expect(expandRanges('3001230000-3001230009', 10).numbers).toHaveLength(10);
    expect(expandRanges('3001230000-3001230010', 10).problems[0].reason).toBe('tooMany');
  });
});
