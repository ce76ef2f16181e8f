// Fastify's response serializers (fast-json-stringify), compiled once per process for each
// distinct schema. Fastify compiles one per route and status, so the shared error schema was
// compiled twice for every route (4xx and 5xx) and ~660 serializers again for every server built
// in the same process (tests build one or more per file): 5–6 s of CPU per build. A serializer is
// a pure function of its schema and of the shared schemas it may $ref, which is the cache key.
// Each is compiled on its first use (http/lazy-compile.ts).
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { compiledOnFirstUse } from './lazy-compile.ts';

type BuildSerializer = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;
type Serializer = ReturnType<ReturnType<BuildSerializer>>;

const compile = SerializerSelector();
/** JSON of the shared schemas and serializer options -> JSON of a response schema -> its serializer. */
const cache = new Map<string, Map<string, Serializer>>();
/**
 * The context key: Fastify hands every route a new object holding the same shared schema objects,
 * so each schema object's JSON is written once and named by a number; the key lists the numbers.
 */
const schemaIds = new WeakMap<object, number>();
const schemaJson = new Map<string, number>();
function schemaId(schema: unknown): string {
  if (schema === null || typeof schema !== 'object') return JSON.stringify(schema);
  let id = schemaIds.get(schema);
  if (id === undefined) {
    const json = JSON.stringify(schema);
    id = schemaJson.get(json);
    if (id === undefined) schemaJson.set(json, (id = schemaJson.size));
    schemaIds.set(schema, id);
  }
  return String(id);
}
function contextKey(externalSchemas: unknown, serializerOpts: unknown): string {
  const shared = externalSchemas && typeof externalSchemas === 'object' ? Object.entries(externalSchemas).map(([name, schema]) => `${JSON.stringify(name)}:${schemaId(schema)}`).join(',') : JSON.stringify(externalSchemas);
  return `${shared}|${JSON.stringify(serializerOpts ?? null)}`;
}

/** Fastify's default serializer factory, remembering each schema's serializer across routes and servers. */
export const memoisedSerializers: BuildSerializer = (externalSchemas, serializerOpts) => {
  const build = compile(externalSchemas, serializerOpts);
  const context = contextKey(externalSchemas, serializerOpts);
  let bySchema = cache.get(context);
  if (!bySchema) cache.set(context, (bySchema = new Map()));
  const known = bySchema;
  return (route) => {
    const key = JSON.stringify(route.schema);
    let serializer = known.get(key);
    if (!serializer) known.set(key, (serializer = compiledOnFirstUse(() => build(route)).call));
    return serializer;
  };
};
