// SPDX-License-Identifier: GPL-2.0-only
import type { Plugin } from 'vite';
export interface ReviewVariantFiles {
  name: string;
  jsonPath: string;
  mjs: string;
  wasm: string;
  json: Record<string, unknown>;
}
export function reviewVariants(dir?: string, env?: Record<string, string | undefined>): ReviewVariantFiles[];
export function reviewModule(variants: ReviewVariantFiles[]): string;
export function reviewVariantsPlugin(): Plugin;
