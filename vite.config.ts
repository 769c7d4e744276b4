// SPDX-License-Identifier: GPL-2.0-only
/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The app lives in web/; kernel sources for the code pane are copied into
// web/public/kernel/ by `make` (from the branches of kernel-tree/linux).
export default defineConfig({
  root: 'web',
  base: './',
  plugins: [react()],
  server: { port: 5173, strictPort: true, fs: { allow: ['..'] } },
  preview: { port: 5173, strictPort: true, host: '127.0.0.1' },
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022' },
  worker: { format: 'es' },
  test: {
    root: '.',
    include: ['web/src/**/*.test.ts'],
    environment: 'node',
  },
});
