// The formats a form's values are checked against, with Ajv's meaning (the server validates with
// Ajv): ajv-formats' full set, and ours over them (src/core/formats.ts, the server's). One table
// for the schema form's validator (schema-validator.ts) and the plain form (plain-form.ts).
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { customFormats } from '../../../core/formats.ts';

/** A format's check and the data type it applies to (Ajv passes a value of another type). */
export interface FormatCheck {
  type: 'string' | 'number';
  test: (value: never) => boolean;
}

export const FORMATS: Readonly<Record<string, FormatCheck>> = (() => {
  const out: Record<string, FormatCheck> = {};
  for (const [name, def] of Object.entries(fullFormats)) {
    if (def instanceof RegExp) out[name] = { type: 'string', test: (v: string) => def.test(v) };
    else if (typeof def === 'function') out[name] = { type: 'string', test: def as (v: string) => boolean };
    else if (def && typeof def === 'object' && 'validate' in def) {
      const check = def.validate;
      const type = 'type' in def && def.type === 'number' ? 'number' : 'string';
      out[name] = { type, test: check instanceof RegExp ? (v: string) => check.test(v) : (check as (v: never) => boolean) };
    }
  }
  for (const [name, test] of Object.entries(customFormats)) out[name] = { type: 'string', test: test as (v: string) => boolean };
  return out;
})();

/** Whether `value` passes the named format; an unknown format passes, as with rjsf's Ajv (strict: false). */
export function formatHolds(format: string, value: unknown): boolean {
  const check = FORMATS[format];
  return !check || typeof value !== check.type || check.test(value as never);
}
