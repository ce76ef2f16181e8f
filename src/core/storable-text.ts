// Strings a database can store and a person can read back. PostgreSQL refuses the NUL character
// in text (it would answer a 500), and a lone UTF-16 surrogate is not text at all: it cannot be
// encoded as UTF-8, so it is refused before it reaches storage, naming the field.
// A name (a property called `name` or ending in `Name`, `label` or `title`: what a person reads
// in lists, menus and e-mails as one line) also refuses control characters, line breaks and the
// bidirectional embeddings, overrides and isolates that make a name read differently from what it
// holds ("Trojan source"); text such as a message keeps its newlines.

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

/** One value met while walking: its property name (or index) and where it hangs, for the path. */
interface Visit {
  value: unknown;
  key: string | undefined;
  /** A property's name is checked before its value (an array index needs no check). */
  checkKey: boolean;
  parent: Visit | null;
}

function pathOf(visit: Visit): string[] {
  const path: string[] = [];
  for (let v: Visit | null = visit; v && v.key !== undefined; v = v.parent) path.push(v.key);
  return path.reverse();
}

/**
 * The first string (value or property name) anywhere in `value` that cannot be stored, depth
 * first. Walked with a stack of its own rather than by recursion, and each value keeps only a
 * link to its parent (the path is spelled out once, for the string at fault): a hostile body
 * nested thousands of levels deep costs time in proportion to its size and never the call stack.
 */
export function findUnstorableString(value: unknown): UnstorableString | null {
  const stack: Visit[] = [{ value, key: undefined, checkKey: false, parent: null }];
  while (stack.length) {
    const visit = stack.pop()!;
    if (visit.checkKey) {
      const keyReason = unstorableReason(visit.key!);
      if (keyReason) return { path: pathOf(visit), reason: keyReason };
    }
    const v = visit.value;
    if (typeof v === 'string') {
      const reason = unstorableReason(v, visit.key !== undefined && isNameProperty(visit.key));
      if (reason) return { path: pathOf(visit), reason };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    // Children go on the stack last first, so they are visited in their own order.
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), checkKey: false, parent: visit });
      continue;
    }
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], key: entries[i][0], checkKey: true, parent: visit });
  }
  return null;
}
