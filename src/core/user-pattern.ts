// Regular expressions written by people (a flow response's pattern, a sendLock's, a conditional's
// "matches"): run by RE2 (re2js, a pure-JavaScript port), whose time grows with the text's length
// only. JavaScript's own engine backtracks: `^(a+)+$` against 25 characters held the process for
// seconds. RE2 leaves out what needs backtracking (backreferences such as \1, lookahead and
// lookbehind) and repetitions over 1000; such a pattern is refused when the flow is saved
// (regexUnsupported), never run. The same function serves the server and the editor's preview.
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
