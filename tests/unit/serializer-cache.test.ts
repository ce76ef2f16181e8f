// Response serializers are compiled once per distinct schema and shared schemas, across routes
// and servers, and serialize as Fastify's own compiler does.
import { describe, expect, it } from 'vitest';
import { memoisedSerializers } from '../../src/server/http/serializer-cache.ts';

const shared = { 'api-error': { $id: 'api-error', type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code'] } };
const errorRef = { $ref: 'api-error#' };
const route = (schema: unknown, httpStatus: string) => ({ schema, method: 'GET', url: `/r${httpStatus}`, httpStatus });

describe('memoisedSerializers', () => {
  it('compiles one serializer for an equal schema across statuses, routes and servers', () => {
    const first = memoisedSerializers(shared)(route(errorRef, '4xx'));
    const sameServer = memoisedSerializers(shared)(route(errorRef, '5xx'));
    const nextServer = memoisedSerializers(structuredClone(shared))(route({ $ref: 'api-error#' }, '4xx'));
    expect(sameServer).toBe(first);
    expect(nextServer).toBe(first);
    // Only the declared properties are written, as fast-json-stringify does.
    expect(first({ code: '99936', message: 'No existe', stack: 'hidden' })).toBe('{"code":"99936","message":"No existe"}');
  });

  it('compiles anew when the schema or the shared schemas differ', () => {
    const first = memoisedSerializers(shared)(route(errorRef, '4xx'));
    const other = memoisedSerializers(shared)(route({ type: 'object', properties: { id: { type: 'integer' } } }, '200'));
    const withDetail = { 'api-error': { ...shared['api-error'], properties: { ...shared['api-error'].properties, detail: { type: 'string' } } } };
    const otherShared = memoisedSerializers(withDetail)(route(errorRef, '4xx'));
    expect(other).not.toBe(first);
    expect(other({ id: 7, secret: 'x' })).toBe('{"id":7}');
    expect(otherShared).not.toBe(first);
    expect(otherShared({ code: '1', detail: 'd' })).toBe('{"code":"1","detail":"d"}');
  });
});
