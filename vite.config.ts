// SPDX-License-Identifier: GPL-2.0-only
/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { CSP } from './scripts/csp.mjs';
import { reviewVariantsPlugin } from './scripts/review-variants.mjs';

// The built index.html carries the Content-Security-Policy (scripts/csp.mjs),
// so dist/ keeps it on any static server. Not in development: the dev
// server's hot reload injects inline scripts.
function cspMeta(): Plugin {
  return {
    name: 'reclaim-lab-csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' }],
  };
}

// The app lives in web/; kernel sources for the code pane are copied into
// web/public/kernel/ by `make` (from the branches of kernel-tree/linux).
export default defineConfig({
  root: 'web',
  base: './',
  // The reviewer's variants (make variant), when variants/ holds any.
  plugins: [react(), cspMeta(), reviewVariantsPlugin()],
  server: { port: 5173, strictPort: true, fs: { allow: ['..'] } },
  preview: { port: 5173, strictPort: true, host: '127.0.0.1' },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    // The page's code is one chunk on purpose (React, D3 and the app: 583 kB, 189 kB gzipped), fetched while the
    // worker boots the kernel (main.tsx); web/e2e/serve.spec.ts holds the whole first load to 500 KB on the wire.
    // Past 700 kB it is worth a look.
    chunkSizeWarningLimit: 700,
    // Rolldown's note of how long plugins took reads as an error in `make start`'s output; `vite build --debug` times them.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  worker: { format: 'es', plugins: () => [reviewVariantsPlugin()], rolldownOptions: { checks: { bundlerTimings: false } } },
  test: {
    root: '.',
    include: ['web/src/**/*.test.ts', 'scripts/**/*.test.ts', 'wasm/tools/**/*.test.ts'],
    environment: 'node',
  },
});
