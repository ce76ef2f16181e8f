// Regular expressions written by people (a flow response's pattern, a sendLock's, a conditional's
// "matches"): run by RE2 (re2js, a pure-JavaScript port), whose time grows with the text's length
// only. JavaScript's own engine backtracks: `^(a+)+$` against 25 characters held the process for
// seconds. RE2 leaves out what needs backtracking (backreferences such as \1, lookahead and
// lookbehind) and repetitions over 1000; such a pattern is refused when the flow is saved
// (regexUnsupported), never run. The same function serves the server and the editor's preview.
// Patterns our code builds from people's text (a WhatsApp template's words around its variables)
// run here too: `(.+?)\s+(.+?)\s+… fin` backtracks polynomially under RegExp.
import { RE2JS } from 're2js';

export interface UserPattern {
  /** Whether the pattern matches somewhere in `text` (as RegExp.prototype.test, case-insensitive). */
  test(text: string): boolean;
}

/** invalid: not a regular expression at all; unsupported: valid JavaScript that RE2 does not run. */
export type PatternProblem = 'invalid' | 'unsupported';

// A conversation tries the same few patterns on every answer: compiled once each, up to this many
// kept (then the cache starts over, so a stream of distinct patterns cannot grow it without end).
const CACHE_MAX = 500;
const cache = new Map<string, UserPattern | PatternProblem>();

function compile(pattern: string): UserPattern | PatternProblem {
  try {
    const re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    return { test: (text) => re.test(text) };
  } catch {
    // JavaScript's engine only parses the pattern here, never runs it: it tells a pattern RE2
    // leaves out (valid JavaScript) from one that is no expression at all.
    try {
      new RegExp(pattern, 'u');
      return 'unsupported';
    } catch {
      return 'invalid';
    }
  }
}

function compiled(pattern: string): UserPattern | PatternProblem {
  let found = cache.get(pattern);
  if (found === undefined) {
    if (cache.size >= CACHE_MAX) cache.clear();
    found = compile(pattern);
    cache.set(pattern, found);
  }
  return found;
}

/** Why `pattern` cannot be used, or null when it can. */
export function patternProblem(pattern: string): PatternProblem | null {
  const found = compiled(pattern);
  return typeof found === 'string' ? found : null;
}

/** The pattern ready to test text in linear time, or null when it cannot be used (see patternProblem). */
export function compileUserPattern(pattern: string): UserPattern | null {
  const found = compiled(pattern);
  return typeof found === 'string' ? null : found;
}

/**
 * JavaScript's \s (Unicode spaces included) in RE2's syntax, whose own \s is ASCII only: for the
 * patterns built from people's text, so they read spaces as they did under RegExp.
 */
export const ANY_SPACE = '[\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}]';

const built = new Map<string, RE2JS>();

/**
 * The groups of `pattern` matching the whole of `text` (`.` matching line breaks too), or null
 * when it does not: for a pattern our code builds (RE2 syntax, valid by construction), in linear
 * time whatever the text.
 */
export function wholeMatchGroups(pattern: string, text: string): string[] | null {
  let re = built.get(pattern);
  if (!re) {
    if (built.size >= CACHE_MAX) built.clear();
    re = RE2JS.compile(pattern, RE2JS.DOTALL);
    built.set(pattern, re);
  }
  const m = re.matcher(text);
  if (!m.matches()) return null;
  return Array.from({ length: m.groupCount() }, (_, i) => m.group(i + 1) ?? '');
}
