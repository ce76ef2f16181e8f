// Fastify's response serializers (fast-json-stringify), compiled once per process for each
// distinct schema. Fastify compiles one per route and status, so the shared error schema was
// compiled twice for every route (4xx and 5xx) and ~660 serializers again for every server built
// in the same process (tests build one or more per file): 5–6 s of CPU per build. A serializer is
// a pure function of its schema and of the shared schemas it may $ref, which is the cache key.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type BuildSerializer = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;
type Serializer = ReturnType<ReturnType<BuildSerializer>>;

const compile = SerializerSelector();
/** JSON of the shared schemas and serializer options -> JSON of a response schema -> its serializer. */
const cache = new Map<string, Map<string, Serializer>>();

/** Fastify's default serializer factory, remembering each schema's serializer across routes and servers. */
export const memoisedSerializers: BuildSerializer = (externalSchemas, serializerOpts) => {
  const build = compile(externalSchemas, serializerOpts);
  const context = JSON.stringify([externalSchemas, serializerOpts ?? null]);
  let bySchema = cache.get(context);
  if (!bySchema) cache.set(context, (bySchema = new Map()));
  const known = bySchema;
  return (route) => {
    const key = JSON.stringify(route.schema);
    let serializer = known.get(key);
    if (!serializer) known.set(key, (serializer = build(route)));
    return serializer;
  };
};
