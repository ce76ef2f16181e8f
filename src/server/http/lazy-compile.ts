// Fastify compiles every route's request validators and response serializers while the server
// gets ready: about 700 compilations, 4–5 s of CPU in every process (the product, each worker,
// each test file) before the first request, though a process calls few of its routes. Each one
// is compiled on its first call instead and kept. `compilePending()` compiles the rest at once:
// the tests run it over a whole server, so a schema that cannot compile fails there, not in a
// person's request.
const pending = new Set<() => unknown>();

/** A function with `build`'s result's behaviour, built on its first call. */
export function compiledOnFirstUse<F extends (...args: never[]) => unknown>(build: () => F): { call: F; compiled(): F } {
  let built: F | undefined;
  const compiled = (): F => {
    if (!built) {
      built = build();
      pending.delete(compiled);
    }
    return built;
  };
  pending.add(compiled);
  const call = ((...args: Parameters<F>) => compiled()(...args)) as F;
  return { call, compiled };
}

/** Compiles every validator and serializer not called yet; answers how many it compiled. */
export function compilePending(): number {
  let count = 0;
  for (const compile of [...pending]) {
    compile();
    count++;
  }
  return count;
}

/** How many validators and serializers wait for their first call. */
export function pendingCompilations(): number {
  return pending.size;
}
