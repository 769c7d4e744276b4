// SPDX-License-Identifier: GPL-2.0-only
// Types of scripts/check-imports.mjs, for its test.
export declare function layerOf(rel: string): string | null;
export declare function checkImports(srcRoot: string): string[];
export declare function caseClashes(paths: string[]): string[];
export declare function checkAddress(srcRoot: string): string[];
