// The setup most server test files start with: one harness for the whole file, created before its
// first test and closed after its last, and the demo users it signs in. The harness is answered at
// once (a stand-in that reaches the real one once it is created), so a file declares it as a
// constant instead of a variable filled and closed by hooks of its own.
import { afterAll, beforeAll } from 'vitest';
import { createHarness, type Harness, type HarnessOptions } from './harness.ts';

/** The file's harness: created before the file's tests (in the order of its hooks), closed after them (last, after the file's own). */
export function fileHarness(options?: HarnessOptions): Harness {
  let current: Harness | undefined;
  beforeAll(async () => { current = await createHarness(options); });
  afterAll(async () => { await current?.close(); });
  return new Proxy({} as Harness, {
    get(_, key) {
      if (!current) throw new Error(`the file's harness is used before its tests start (reading ${String(key)})`);
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/** The tokens of the named demo users (Harness.as), signed in before the file's tests; a test that moves the clock past a session's life signs one in again by replacing its token. */
export function signedIn<Name extends string>(h: Harness, ...names: Name[]): Record<Name, string> {
  const tokens = {} as Record<Name, string>;
  beforeAll(async () => {
    for (const name of names) tokens[name] = (await h.as(name)).token;
  });
  return tokens;
}

/** Like signedIn, with each user's id beside the token (for the tests that read or change the user's own record). */
export function signedInUsers<Name extends string>(h: Harness, ...names: Name[]): Record<Name, { token: string; id: number }> {
  const users = {} as Record<Name, { token: string; id: number }>;
  beforeAll(async () => {
    for (const name of names) {
      const { token, session } = await h.as(name);
      users[name] = { token, id: session.idUser };
    }
  });
  return users;
}
