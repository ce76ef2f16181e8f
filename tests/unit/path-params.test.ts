// The console fills an operation's path parameters from the generated client's `pathParams`
// (read once from the path templates by the generator), never by parsing paths itself.
import { describe, it, expect } from 'vitest';
import { pathParams } from '../../src/generated/client.gen.ts';
import { operations } from '../../src/generated/operations.gen.ts';
import { buildArgs, fillPathParams, pathParamNames } from '../../src/console/api/args.ts';

describe('path parameters', () => {
  it('names every {name} of each operation path, in order', () => {
    for (const { id, path } of operations) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(pathParamNames(id), id).toEqual(inPath);
    }
    expect(pathParams['associations.getOne']).toEqual(['id', 'associationId']);
  });

  it('takes the names the params leave out from the record, keeping the declared ones', () => {
    expect(fillPathParams('associations.getOne', { id: 7 }, { id: 1, associationId: 2, other: 3 })).toEqual({ id: 7, associationId: 2 });
    expect(fillPathParams('associations.getOne', {}, undefined)).toEqual({});
    expect(buildArgs('associations.getOne', { id: 1, associationId: 2, q: 'x' })).toEqual({ params: { id: 1, associationId: 2 }, query: { q: 'x' } });
  });
});
