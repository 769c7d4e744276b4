// SPDX-License-Identifier: GPL-2.0-only
// Every style sheet of web/src (the app's shared one, and each component's
// and scene's beside its code): a rule left open swallows the rules after it
// without any error from the build.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function* sheets(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sheets(p);
    else if (e.name.endsWith('.css')) yield p;
  }
}

const all = [...sheets('web/src')];

describe('style sheets', () => {
  it('include the shared one and those beside their code', () => {
    expect(all).toContain(join('web/src/app/styles.css'));
    expect(all.length).toBeGreaterThan(2);
  });

  for (const file of all) {
    it(`${file} closes every rule, and nests only inside at-rules`, () => {
      const css = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
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
  }
});
