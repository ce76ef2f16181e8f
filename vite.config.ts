// The console's build: a React SPA in history mode. Route screens are lazy (src/generated/
// routes.gen.ts), so the first load for /signin carries React, MUI, the router, i18n, the plain
// layout and (in its own chunk) the form runtime. Vega and the flow editor are not imported yet;
// when they come they must stay behind lazy routes.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist/console',
    emptyOutDir: true,
    sourcemap: false,
    // .vite/manifest.json lets the benchmark follow what /signin loads (entry + the form chunk).
    manifest: true,
    chunkSizeWarningLimit: 900,
  },
  server: {
    proxy: Object.fromEntries(['/v1', '/v3', '/notifications', '/health', '/docs'].map((p) => [p, { target: api, changeOrigin: false }])),
  },
  preview: {
    proxy: Object.fromEntries(['/v1', '/v3', '/notifications', '/health', '/docs'].map((p) => [p, { target: api, changeOrigin: false }])),
  },
});
