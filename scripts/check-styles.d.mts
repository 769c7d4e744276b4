// SPDX-License-Identifier: GPL-2.0-only
// Types of scripts/check-styles.mjs, for its test.
export declare const RULE_BUDGET: number;
export declare function sceneFolders(srcRoot: string): string[];
export declare function cssRules(css: string): string[];
export declare function classesOf(selector: string): string[];
export declare function checkStyles(srcRoot: string, sheet?: string, budget?: number): string[];
