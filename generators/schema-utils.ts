// Pure helpers over JSON Schemas shared by the emitters.
import type { Json, Schema } from './model.ts';

export const pascal = (s: string) =>
  s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((p) => p[0].toUpperCase() + p.slice(1)).join('');

/** Replaces "$ref": "x#" by the entity itself (non-recursive entities only). */
export function deref(schema: Json, entities: Map<string, Schema>, seen: string[] = []): Json {
  if (Array.isArray(schema)) return schema.map((s) => deref(s, entities, seen));
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    const id = schema.$ref.replace(/#$/, '');
    if (seen.includes(id)) throw new Error(`recursive $ref ${id} cannot be inlined`);
    const { $id, ...target } = entities.get(id)!;
    void $id;
    const { $ref, ...rest } = schema;
    void $ref;
    return deref({ ...target, ...rest }, entities, [...seen, id]);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, deref(v, entities, seen)]));
}

/** Rewrites "$ref": "x#" to a local pointer (OpenAPI components, json-schema-to-typescript definitions). */
export function rewriteRefs(schema: Json, to: (id: string) => string): Json {
  if (Array.isArray(schema)) return schema.map((s) => rewriteRefs(s, to));
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? to(v.replace(/#$/, '')) : rewriteRefs(v, to)]),
  );
}

/** Drops our x- annotations where a consumer would reject them (OpenAPI keeps them as extensions). */
export function stripX(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(stripX);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !k.startsWith('x-')).map(([k, v]) => [k, stripX(v)]));
}

/** Every x- keyword used anywhere, so the server's Ajv can accept them as annotations. */
export function xKeywords(schemas: Json[], out = new Set<string>()): Set<string> {
  const walk = (s: Json) => {
    if (Array.isArray(s)) s.forEach(walk);
    else if (s && typeof s === 'object') for (const [k, v] of Object.entries(s)) { if (k.startsWith('x-')) out.add(k); walk(v); }
  };
  schemas.forEach(walk);
  return out;
}
