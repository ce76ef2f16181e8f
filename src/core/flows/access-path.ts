// The part of an integration's answer a step keeps (spec 3: assign-to-variable with an access
// path): "$.data.items[0].name", "data.items.0.name" or "$" for the whole answer. JSONPath's
// common subset only (no filters or wildcards): a step keeps one value.

export type PathSegment = string | number;

/** The path's segments, or null when it is not a path this reads. */
export function parseAccessPath(path: string): PathSegment[] | null {
  let rest = path.trim();
  if (rest === '' || rest === '$') return [];
  if (rest.startsWith('$')) rest = rest.slice(1);
  const segments: PathSegment[] = [];
  const token = /^(?:\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]|\.(\d+))/;
  while (rest.length) {
    const m = token.exec(rest);
    if (!m) return null;
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(Number(m[2]));
    else if (m[3] !== undefined) segments.push(m[3]);
    else if (m[4] !== undefined) segments.push(m[4]);
    else segments.push(Number(m[5]));
    rest = rest.slice(m[0].length);
  }
  return segments;
}

/** The value at the path (own properties only), or undefined when the answer has none there. */
export function readAccessPath(value: unknown, path: string): unknown {
  const segments = parseAccessPath(path);
  if (!segments) return undefined;
  let at: unknown = value;
  for (const s of segments) {
    if (at === null || typeof at !== 'object') return undefined;
    if (typeof s === 'number' && !Array.isArray(at)) return undefined;
    if (!Object.hasOwn(at, s)) return undefined;
    at = (at as Record<string | number, unknown>)[s];
  }
  return at;
}

/** A kept value as the variable's text: strings as they are, other values as JSON. */
export function variableText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
