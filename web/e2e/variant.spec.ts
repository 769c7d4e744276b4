// SPDX-License-Identifier: GPL-2.0-only
// A reviewer's variant (make variant) in the page: listed in the kernel
// picker as the reviewer's patch on its base, it runs, and What changed
// shows its diff against the base with the series' subject and Message-ID.
// Run by make test-variant (kernel-tree/tests/test-variant.sh), which makes
// the variant and names it in RECLAIM_LAB_VARIANT; skipped without one.
import { expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
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

test("the report's links open its runs in the page, reports and all", async ({ page }) => {
  test.skip(!NAME || !existsSync(`variants/${NAME}/report.txt`), 'no report (make variant-report makes one)');
  const report = readFileSync(`variants/${NAME}/report.txt`, 'utf8');
  const link = /in the page: \S+?(\?scene=\S+)/.exec(report);
  expect(link, 'a link in the report').not.toBeNull();
  // The report's lines for that run: the titles just above its link.
  const block = report.slice(0, link!.index).split('\n').reverse();
  const titles = block.slice(1, block.findIndex((l) => l.trimStart().startsWith('scenario '))).filter((l) => l.includes('report: '));
  expect(titles.length).toBeGreaterThan(0);
  const l = new Lab(page);
  await l.open(link![1]);
  await expect(page.getByTestId('scene.variant')).toHaveValue(NAME!);
  await l.goTo((await page.evaluate(() => window.__lab!.length)) - 1);
  for (const t of titles) {
    const title = t.split('report: ')[1].replace(/^BUG: /, '').replace(/^WARNING: /, '').split(' at ')[0].split(' in ')[0];
    await expect(page.getByTestId('reports')).toContainText(title);
  }
  await page.screenshot({ path: `test-results/variant-${NAME}-report.png`, fullPage: false });
});
