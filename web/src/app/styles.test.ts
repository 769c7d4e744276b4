// SPDX-License-Identifier: GPL-2.0-only
// The style sheet is one file that every scene appends to: a rule left
// open swallows the rules after it without any error from the build.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

describe('styles.css', () => {
  it('closes every rule, and nests only inside at-rules', () => {
    const css = readFileSync('web/src/app/styles.css', 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const open: string[] = [];
    let line = 1;
    let start = 0;
    for (let i = 0; i < css.length; i++) {
      const c = css[i];
      if (c === '\n') line++;
      if (c === '{') {
        const prelude = css.slice(start, i).trim();
        if (open.length > 0) expect(open.at(-1), `line ${line}: "${prelude}" opens inside "${open.at(-1)}"`).toMatch(/^@/);
        open.push(prelude);
        start = i + 1;
      } else if (c === '}') {
        expect(open.length, `line ${line}: a "}" closes nothing`).toBeGreaterThan(0);
        open.pop();
        start = i + 1;
      } else if (c === ';' && open.length === 0) start = i + 1;
    }
    expect(open, 'rules left open at the end').toEqual([]);
  });
});
