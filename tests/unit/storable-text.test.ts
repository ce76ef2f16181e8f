// findUnstorableString walks any shape without recursion: a value nested far deeper than the call
// stack allows is walked, and the first string at fault is named by its whole path, in order.
import { describe, expect, it } from 'vitest';
import { findUnstorableString } from '../../src/core/storable-text.ts';

/** { a: { a: … { a: leaf } } } `depth` levels deep, built without recursion. */
function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

describe('findUnstorableString', () => {
  it('finds a NUL 200,000 levels deep, naming its path', () => {
    const found = findUnstorableString(nested(200_000, 'x\u0000'));
    expect(found?.reason).toBe('nul');
    expect(found?.path).toHaveLength(200_000);
    expect(found?.path.slice(0, 4)).toEqual(['a', '0', 'a', '0']);
  });

  it('answers null for a deep value with nothing at fault', () => {
    expect(findUnstorableString(nested(200_000, 'fine'))).toBeNull();
  });

  it('reports the first fault in document order: a key before its value, earlier siblings first', () => {
    expect(findUnstorableString({ ok: ['a', 'b\u0000'], later: '\ud800' })).toEqual({ path: ['ok', '1'], reason: 'nul' });
    expect(findUnstorableString({ first: { 'k\u0000': 'v\ud800' } })).toEqual({ path: ['first', 'k\u0000'], reason: 'nul' });
    expect(findUnstorableString({ list: [{ name: 'línea\nnueva' }] })).toEqual({ path: ['list', '0', 'name'], reason: 'control' });
    expect(findUnstorableString([{ note: 'línea\nnueva' }, 'x\u0000'])).toEqual({ path: ['1'], reason: 'nul' });
    expect(findUnstorableString('\u0000')).toEqual({ path: [], reason: 'nul' });
  });
});
