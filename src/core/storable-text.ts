// Strings a database can store and a person can read back. PostgreSQL refuses the NUL character
// in text (it would answer a 500), and a lone UTF-16 surrogate is not text at all: it cannot be
// encoded as UTF-8, so it is refused before it reaches storage, naming the field (issue 10).

export type UnstorableReason = 'nul' | 'loneSurrogate';

export interface UnstorableString {
  /** Property path inside the value, e.g. ['recipients', '0', 'name']; a key's own path when the key is at fault. */
  path: string[];
  reason: UnstorableReason;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one (code units,
// hence no `u` flag). String.prototype.isWellFormed says the same from ES2024 on.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored, or null when it can. */
export function unstorableReason(text: string): UnstorableReason | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'loneSurrogate';
  return null;
}

/** The first string (value or property name) anywhere in `value` that cannot be stored, depth first. */
export function findUnstorableString(value: unknown, path: string[] = []): UnstorableString | null {
  if (typeof value === 'string') {
    const reason = unstorableReason(value);
    return reason ? { path, reason } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableString(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyReason = unstorableReason(key);
    if (keyReason) return { path: [...path, key], reason: keyReason };
    const found = findUnstorableString(item, [...path, key]);
    if (found) return found;
  }
  return null;
}
