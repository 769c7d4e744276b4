// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { kernelBranch, shownSiteAt } from './codesite';
import { loadRun } from './testing/fixtures';

describe('the code pane’s line', () => {
  it('is never missing at any step of a real run, and says where it comes from', () => {
    const log = loadRun('shrinker-lifetime', 1);
    const seen = new Set<string>();
    for (let i = 0; i < log.length; i++) {
      const s = shownSiteAt(log, i)!;
      expect(s, `step ${i}`).not.toBeNull();
      seen.add(s.how);
      if (s.how === 'event') expect(s.at).toBe(i);
      if (s.how === 'cpu') {
        // The last line that CPU ran: an earlier event of the same CPU, and none with a line in between.
        expect(log.siteOf(i)).toBeNull();
        expect(s.at).toBeLessThan(i);
        expect(log.cpu[s.at]).toBe(log.cpu[i]);
        for (let j = s.at + 1; j < i; j++) if (log.cpu[j] === log.cpu[i]) expect(log.siteOf(j)).toBeNull();
      }
      if (s.how === 'entry') {
        for (let j = 0; j <= i; j++) if (log.cpu[j] === log.cpu[i]) expect(log.siteOf(j)).toBeNull();
        for (let j = 0; j < s.at; j++) expect(log.siteOf(j)).toBeNull();
      }
      expect(s.site).toBe(log.siteOf(s.at));
    }
    // Step 0 (a task starting) has no line of its own; the last step neither.
    expect(shownSiteAt(log, 0)!.how).toBe('entry');
    expect(shownSiteAt(log, log.length - 1)!.how).not.toBe('event');
    expect(seen).toEqual(new Set(['event', 'cpu', 'entry']));
  });

  it('names the branch the run’s kernel lines come from', () => {
    expect(kernelBranch(loadRun('shrinker-lifetime', 1))).toBe('v6.12');
  });
});
