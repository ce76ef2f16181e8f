// The V8 flags every Node process of the product runs with (package.json's start, worker and
// rollups scripts write the same): `--no-memory-protection-keys` turns off V8's ThreadIsolation
// of JIT pages on machines whose CPUs have memory protection keys (PKU). With it on, PGlite's
// WebAssembly code churn intermittently aborts the process ("Check failed: jit_page.has_value()",
// nodejs/node#64500); docs/operations-and-scaling.md says more.
export const NODE_FLAGS = ['--no-memory-protection-keys'];
