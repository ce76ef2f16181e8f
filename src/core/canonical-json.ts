// Canonical JSON (the subset of RFC 8785 our signed statements use): object keys sorted by code
// unit, no whitespace, strings and numbers as JSON.stringify writes them. The same value always
// gives the same bytes, so a hash or a signature over it can be checked by anyone who re-reads the
// value, whatever order its keys were written or stored in. Non-finite numbers have no JSON form
// and are refused rather than written as null; members whose value is undefined are left out, as
// JSON.stringify leaves them.
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('canonical JSON has no form for a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new Error(`canonical JSON has no form for ${typeof value}`);
}
