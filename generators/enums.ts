// An enum declaration (schemas/enums/*.yaml) as the emitters read it: its values and, when it
// declares them, the facts code needs about each value (x-meta names them, x-values gives them).
// The meta-schema (schemas/_meta/enum.schema.yaml) checks the shapes; this checks what a
// meta-schema cannot: x-values covers exactly the enum's values, each entry has exactly the
// x-meta fields with their types, a field of another enum's type holds one of its values, and
// `name` fields are unique identifiers (they become the keys of <enum>ByName).
import type { Loaded } from './load.ts';
import { DeclarationError } from './load.ts';
import type { Json } from './model.ts';

export type EnumValue = string | number;

export interface MetaField { type?: 'string' | 'integer' | 'number' | 'boolean'; $ref?: string; description?: string }

export interface EnumDecl {
  id: string;
  file: string;
  description: string | null;
  values: EnumValue[];
  /** The x-meta fields in declared order (empty when the enum declares none). */
  fields: [string, MetaField][];
  /** x-values: value (as a string key) → field → fact; null when the enum declares none. */
  meta: Record<string, Record<string, Json>> | null;
}

/** Reads an enum file already checked against its meta-schema. */
export function readEnum(l: Loaded): EnumDecl {
  const d = l.data as { $id: string; description?: string; enum: EnumValue[]; 'x-meta'?: Record<string, MetaField>; 'x-values'?: Record<string, Record<string, Json>> };
  return {
    id: d.$id, file: l.file, description: d.description ?? null, values: d.enum,
    fields: Object.entries(d['x-meta'] ?? {}), meta: d['x-values'] ?? null,
  };
}

/** The enum schema as the API sees it: x-meta and x-values are the generator's, not the API's. */
export function apiSchema(data: Record<string, Json>): Record<string, Json> {
  const { 'x-meta': meta, 'x-values': values, ...rest } = data;
  void meta; void values;
  return rest;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Checks x-values against the enum's values and x-meta, once every enum is known. */
export function checkEnumMeta(e: EnumDecl, l: Loaded, enums: Map<string, EnumDecl>): void {
  if (!e.meta) return;
  const fail = (path: (string | number)[], reason: string): never => {
    throw new DeclarationError(e.file, '/' + path.join('/'), reason, l.lineOf(path));
  };
  for (const [field, m] of e.fields) {
    if (m.$ref && !enums.has(m.$ref.replace(/#$/, ''))) fail(['x-meta', field, '$ref'], `unknown enum "${m.$ref}"`);
  }
  const keys = new Set(e.values.map(String));
  for (const key of Object.keys(e.meta)) if (!keys.has(key)) fail(['x-values', key], `"${key}" is not a value of ${e.id}`);
  for (const v of e.values) {
    const entry = e.meta[String(v)];
    if (!entry) fail(['x-values'], `value ${JSON.stringify(v)} has no entry (x-values must give every value its x-meta fields)`);
    for (const key of Object.keys(entry)) if (!e.fields.some(([f]) => f === key)) fail(['x-values', String(v), key], `"${key}" is not an x-meta field`);
    for (const [field, m] of e.fields) {
      const at = ['x-values', String(v), field];
      if (!(field in entry)) fail(['x-values', String(v)], `missing x-meta field "${field}"`);
      const fact = entry[field];
      if (m.$ref) {
        const target = enums.get(m.$ref.replace(/#$/, ''))!;
        if (!target.values.includes(fact as EnumValue)) fail(at, `${JSON.stringify(fact)} is not a value of ${target.id}`);
      } else if (!hasType(fact, m.type!)) fail(at, `must be ${m.type}`);
    }
  }
  if (e.fields.some(([f]) => f === 'name')) {
    const seen = new Set<string>();
    for (const v of e.values) {
      const name = e.meta[String(v)].name as string;
      const at = ['x-values', String(v), 'name'];
      if (!IDENTIFIER.test(name)) fail(at, `name "${name}" must be an identifier`);
      if (seen.has(name)) fail(at, `name "${name}" is used twice`);
      seen.add(name);
    }
  }
}

function hasType(v: Json, type: NonNullable<MetaField['type']>): boolean {
  switch (type) {
    case 'string': return typeof v === 'string';
    case 'boolean': return typeof v === 'boolean';
    case 'number': return typeof v === 'number';
    case 'integer': return Number.isInteger(v);
  }
}
