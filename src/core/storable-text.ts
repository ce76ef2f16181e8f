// Strings a database can store and a person can read back. PostgreSQL refuses the NUL character
// in text (it would answer a 500), and a lone UTF-16 surrogate is not text at all: it cannot be
// encoded as UTF-8, so it is refused before it reaches storage, naming the field (issue 10).
// A name (a property called `name` or ending in `Name`, `label` or `title`: what a person reads
// in lists, menus and e-mails as one line) also refuses control characters, line breaks and the
// bidirectional embeddings, overrides and isolates that make a name read differently from what it
// holds ("Trojan source"); text such as a message keeps its newlines (issue 13).

export type UnstorableReason = 'nul' | 'loneSurrogate' | 'control' | 'bidi';

/** Whether a property holds a one-line name (the rule above): name, fullName, companyName, label, title. */
export const isNameProperty = (key: string): boolean => key === 'name' || key === 'label' || key === 'title' || /^[a-z]+Name$/.test(key);

// C0 controls (tab and line breaks included), DEL, C1 controls, and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex -- finding control characters is the purpose
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
// LRE RLE PDF LRO RLO (U+202A–U+202E) and LRI RLI FSI PDI (U+2066–U+2069).
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

export interface UnstorableString {
  /** Property path inside the value, e.g. ['recipients', '0', 'name']; a key's own path when the key is at fault. */
  path: string[];
  reason: UnstorableReason;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one (code units,
// hence no `u` flag). String.prototype.isWellFormed says the same from ES2024 on.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored (as a name, when `name`), or null when it can. */
export function unstorableReason(text: string, name = false): UnstorableReason | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'loneSurrogate';
  if (name && CONTROL.test(text)) return 'control';
  if (name && BIDI.test(text)) return 'bidi';
  return null;
}

/** The first string (value or property name) anywhere in `value` that cannot be stored, depth first. */
export function findUnstorableString(value: unknown, path: string[] = []): UnstorableString | null {
  if (typeof value === 'string') {
    const key = path.at(-1);
    const reason = unstorableReason(value, key !== undefined && isNameProperty(key));
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
