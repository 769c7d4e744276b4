// SPDX-License-Identifier: GPL-2.0-only
// The boundary check finds each kind of crossing, and the tree has none.
import { describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { tempTree } from './tempTree';
import { caseClashes, checkAddress, checkImports } from './check-imports.mjs';

describe('check-imports', () => {
  it('finds each crossing and passes what the rules allow', () => {
    const root = tempTree('boundaries-', {
      'engine/log.ts': "import { x } from '../ui/colors';\nimport data from '../../data.json';\nexport const y = 1;",
      'engine/ok.ts': "import { y } from './log';\nimport React from 'react';",
      'ui/colors.ts': "import { y } from '../engine/log';\nimport { App } from '../app/App';",
      'scenes/a/view.tsx': "import type { SceneDef } from '../types';\nimport { m } from '../b/model';\nimport { t } from '../../ui/colors';\nimport { Timeline } from '../../ui/Timeline';",
      'scenes/b/model.ts': 'export const m = 1;',
      'scenes/types.ts': "import type { EventLog } from '../engine/log';",
      'scenes/registry.ts': "import { a } from './a/view';",
      'lessons/l.ts': "import { findScene } from '../scenes/registry';\nimport { Talk } from '../talk/Talk';",
      'talk/Talk.tsx': "import type { Lesson } from '../lessons/l';\nimport {\n  App,\n} from '../app/App';",
      'app/App.tsx': "import { a } from '../scenes/a/view';\nimport { l } from '../lessons/l';\nconst g = import.meta.glob('../engine/*.ts');",
      'main.tsx': "import { App } from './app/App';",
    });
    try {
      expect(checkImports(root).sort()).toEqual([
        'engine/log.ts: imports ../ui/colors (engine -> ui)',
        'lessons/l.ts: imports ../talk/Talk (lessons -> talk)',
        'scenes/a/view.tsx: imports ../../ui/Timeline (scene:a -> ui)',
        'scenes/a/view.tsx: imports ../b/model (scene:a -> scene:b)',
        'talk/Talk.tsx: imports ../app/App (talk -> app)',
        'ui/colors.ts: imports ../app/App (ui -> app)',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('finds names that differ only by case', () => {
    expect(caseClashes(['a/FiguresPanel.tsx', 'a/figures.ts', 'b/figures.ts', 'a/README.md', 'a/readme.txt', 's/csp.mjs', 's/csp.d.mts'])).toEqual([]);
    expect(caseClashes(['a/Figures.tsx', 'a/figures.ts'])).toEqual(['a/Figures.tsx = a/figures.ts']);
    expect(caseClashes(['a/Scale.tsx', 'a/scale.tsx', 'A/scale.tsx'])).toEqual(['a/Scale.tsx = a/scale.tsx', 'a/Scale.tsx = A/scale.tsx']);
  });

  it('finds no crossing in web/src', () => {
    expect(checkImports('web/src')).toEqual([]);
  });

  it('finds the page\'s address read or changed outside app/url.ts, in code and not in words', () => {
    const root = tempTree('address-', {
      'app/url.ts': 'export const pageSearch = () => window.location.search;',
      'app/Old.tsx': "// reads location.search in a comment\nconst s = `${window.location.search}`;\nconst q = new URLSearchParams(s);",
      'talk/Talk.tsx': "const text = 'location';\nwindow.history.replaceState(null, '', '?a');\nrun.history.at(0);",
      'app/url.test.ts': 'const q = new URLSearchParams(location.search);',
    });
    try {
      expect(checkAddress(root).sort()).toEqual(['app/Old.tsx:2: location', 'app/Old.tsx:3: URLSearchParams', 'talk/Talk.tsx:2: replaceState']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('finds the address nowhere in web/src but app/url.ts', () => {
    expect(checkAddress('web/src')).toEqual([]);
  });
});
