// JSON bodies, parsed by Fastify's own parser (prototype-poisoning checks included) after one
// linear scan of the raw text that refuses a body nested deeper than JSON_DEPTH_MAX. Every later
// walk over a body (the storable-text check, Ajv, the handlers) then meets a bounded shape: a
// 200 KB body of 100,000 opening brackets is refused in the time it takes to read it once,
// before anything recurses over it, instead of holding the process for seconds and answering 500.
import type { FastifyInstance } from 'fastify';
import { ApiError, messageFor } from '../errors/api-error.ts';

/**
 * The deepest nesting of arrays and objects a JSON body may have. The deepest body the API
 * declares (a flow's definition: steps → settings → responses → keywords) is under 10 levels;
 * 64 leaves ample room for any honest client while keeping every walk over a body short and far
 * from the call stack's limit.
 */
export const JSON_DEPTH_MAX = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * Whether `text` opens more than `max` arrays or objects inside one another, in one pass and
 * without recursion. Brackets inside strings do not count; the text need not be valid JSON
 * (JSON.parse judges that afterwards), so a stray closing bracket only lowers the count.
 */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

/** The refusal of a body nested too deep: 99931 on the body as a whole. */
export function tooDeep(): ApiError {
  const message = `${messageFor('99931')} (JSON nested deeper than ${JSON_DEPTH_MAX} levels)`;
  return new ApiError('99931', message, [{ field: '', code: '99931', message }]);
}

/** Replaces the application/json parser with the depth-checked one (same poisoning rules as Fastify's default). */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    if (jsonDeeperThan(body, JSON_DEPTH_MAX)) {
      done(tooDeep(), undefined);
      return;
    }
    parse(request, body, done);
  });
}
