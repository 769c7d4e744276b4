// SPDX-License-Identifier: GPL-2.0-only
// The reviewer's variants (make variant), as scripts/review-variants.mjs
// makes the module from variants/*/variant.json at build time.
declare module 'virtual:review-variants' {
  export interface Reviewed {
    name: string;
    /** The lab's variant it is built as (wasm/build.mk), and that variant's branch. */
    base: string;
    baseBranch: string;
    /** Its branch of kernel-tree/linux: variant/<name>. */
    branch: string;
    /** The series' subject and Message-ID (the cover letter's, or the first patch's). */
    subject: string;
    messageId: string;
    patches: string[];
    touched: string[];
  }
  export const REVIEWED: Reviewed[];
  /** The browser module of each (the worker types it). */
  export const factories: Record<string, () => Promise<{ default: unknown }>>;
  export const wasmUrls: Record<string, string>;
}
