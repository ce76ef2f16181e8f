import { describe, expect, it } from 'vitest';
import { typedPrefill } from '../../src/console/runtime/form/prefill-types.ts';

describe('a form prefill from the address', () => {
  it('gives a numeric field the number its text writes, and leaves the rest as text', () => {
    const properties = { fileId: { type: 'integer' }, share: { type: ['number', 'null'] }, name: { type: 'string' }, other: { type: 'integer' } };
    expect(typedPrefill(properties, { fileId: '12', share: ' 2.5 ', name: '12', other: 'doce', extra: '7' }))
      .toEqual({ fileId: 12, share: 2.5, name: '12', other: 'doce', extra: '7' });
  });
});
