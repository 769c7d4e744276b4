// SPDX-License-Identifier: GPL-2.0-only
// The shared-styles check finds a scene's own class and a sheet over its
// budget in a made-up tree, and passes the real one.
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { tempTree } from './tempTree';
import { checkStyles, cssRules, sceneFolders } from './check-styles.mjs';

describe('check-styles', () => {
  it('reads rules, not at-rules', () => {
    expect(cssRules('/* .x { } */ .a, .b { c: d; } @media (x) { .e .f { g: h; } }')).toEqual(['.a, .b', '.e .f']);
  });

  it('finds a class of one scene alone, a class named after a scene, and too many rules', () => {
    const root = tempTree('styles-', {
      'scenes/registry.ts': "import type { SceneDef } from './types';\nimport { a } from './alpha';\nimport { b } from './beta';",
      'scenes/alpha/view.tsx': 'export const v = <div className="lone both">{"x"}</div>;',
      'scenes/beta/view.tsx': 'export const v = <div className="both">{"y"}</div>;',
      'scenes/gamma/view.tsx': 'export const v = <div className="gamma-own" />;', // not registered: not a scene
      'ui/Panel.tsx': 'export const p = <section className="panel" />;',
      'app/styles.css': '.panel { a: b; }\n.both { a: b; }\n.lone, .gamma-own { a: b; }\n.beta-card:hover { a: b; }\n@media (x) { .panel { a: c; } }',
    });
    try {
      expect(sceneFolders(root)).toEqual(['alpha', 'beta']);
      expect(checkStyles(root, 'app/styles.css', 4)).toEqual([
        'app/styles.css: .lone is used by scene alpha alone; its rule belongs in scenes/alpha/',
        'app/styles.css: .beta-card is named after scene beta; its rule belongs in scenes/beta/',
        "app/styles.css: 5 rules, over the budget of 4: put a component's or scene's rules in a sheet beside its code",
      ]);
      expect(checkStyles(root, 'app/styles.css', 5)).toHaveLength(2);
    } finally {
      rmSync(root, { recursive: true });
    }
  });

  it('passes the tree', () => {
    expect(checkStyles('web/src')).toEqual([]);
  });
});
