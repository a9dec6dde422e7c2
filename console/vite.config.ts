import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The console page: built into dist/console, served by the server under /console/. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // The server's own address is the only origin the page talks to; no module preload polyfill needed.
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
  server: { proxy: { '^/(sms|rcs|calls|2fa|sandbox|switchboard|subscriptions)/': 'http://127.0.0.1:8080' } },
});
