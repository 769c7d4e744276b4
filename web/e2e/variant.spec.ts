// SPDX-License-Identifier: GPL-2.0-only
// A reviewer's variant (make variant) in the page: listed in the kernel
// picker as the reviewer's patch on its base, it runs, and What changed
// shows its diff against the base with the series' subject and Message-ID.
// Run by make test-variant (kernel-tree/tests/test-variant.sh), which makes
// the variant and names it in RECLAIM_LAB_VARIANT; skipped without one.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Lab } from './lab';

const NAME = process.env.RECLAIM_LAB_VARIANT;

test('a made variant runs in the page and shows what it changed', async ({ page }) => {
  test.skip(!NAME, 'no reviewer variant named (make test-variant makes one)');
  const v = JSON.parse(readFileSync(`variants/${NAME}/variant.json`, 'utf8')) as {
    base: string;
    baseBranch: string;
    branch: string;
    subject: string;
    messageId: string;
    touched: string[];
  };
  const l = new Lab(page);
  await l.open(`?scene=shrinker-lifetime&variant=${NAME}`);
  // The picker lists it after its base, as the reviewer's patch.
  const picker = page.getByTestId('scene.variant');
  await expect(picker).toHaveValue(NAME!);
  await expect(picker.locator('option:checked')).toHaveText(`${NAME} (your patch on ${v.base})`);
  // The run is this kernel's: its events point into its own branch.
  await expect.poll(() => page.evaluate(() => window.__lab!.ready)).toBe(true);
  // What changed: the base against the series, titled with its subject and Message-ID.
  const panel = page.getByTestId('diff.panel');
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('diff.select')).toHaveValue(`${v.baseBranch}..${v.branch}`);
  await expect(panel).toContainText(v.subject);
  if (v.messageId) await expect(panel).toContainText(v.messageId);
  await expect(page.getByTestId('diff.hunk').first()).toContainText(v.touched[0]);
  await page.screenshot({ path: `test-results/variant-${NAME}.png`, fullPage: false });
});
