// SPDX-License-Identifier: GPL-2.0-only
// Types of scripts/csp.mjs, for vite.config.ts and the end-to-end tests.
export declare const CSP_DIRECTIVES: Record<string, string[]>;
export declare const CSP: string;
