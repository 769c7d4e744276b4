// SPDX-License-Identifier: GPL-2.0-only
import { expect, test } from '@playwright/test';
import { statSync } from 'node:fs';
import { Lab } from './lab';

const SCENE = '?scene=shrinker-lifetime&seed=1';

test('stepping shows the real line of mm/shrinker.c on branch v6.12', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open(`${SCENE}&step=0`);
  const checked = new Set<number>();
  for (let n = 1; n <= 400 && checked.size < 5; n++) {
    await lab.step();
    expect(await lab.currentStep()).toBe(n);
    const site = await lab.site();
    if (site?.tree !== 'v6.12' || site.file !== 'mm/shrinker.c' || checked.has(site.line)) continue;
    const want = Lab.kernelLine('v6.12', 'mm/shrinker.c', site.line);
    await expect(lab.highlightedLine()).toHaveAttribute('data-line', String(site.line));
    // The pane shows the line as the branch has it (blank lines render as a space).
    await expect(lab.highlightedLine().locator('.src')).toHaveText(want.length ? want : ' ', { useInnerText: false });
    await expect(page.getByTestId('code.file')).toContainText(`mm/shrinker.c:${site.line}`);
    checked.add(site.line);
  }
  expect(checked.size).toBe(5);
});

test('a reloaded permalink shows the same state', async ({ page, context }) => {
  const lab = new Lab(page);
  await lab.open(`${SCENE}&step=0`);
  for (let n = 0; n < 30; n++) await lab.step();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  expect(await lab.currentStep()).toBe(31);
  await expect(page).toHaveURL(/step=31/);
  const url = page.url();
  const before = {
    site: await lab.site(),
    narration: await lab.narration(),
    line: await lab.highlightedLine().textContent(),
    shrinkers: await page.getByTestId('scene.shrinkers').textContent(),
  };

  const again = new Lab(await context.newPage());
  await again.open(url);
  expect(await again.currentStep()).toBe(31);
  expect(await again.site()).toEqual(before.site);
  expect(await again.narration()).toBe(before.narration);
  await expect(again.highlightedLine()).toHaveText(before.line!);
  await expect(again.page.getByTestId('scene.shrinkers')).toHaveText(before.shrinkers!);
});

test('play advances, back steps back, and a screenshot is saved', async ({ page }, info) => {
  const lab = new Lab(page);
  await lab.open(`${SCENE}&step=210`);
  await page.getByTestId('scene.speed').selectOption('64');
  await page.getByTestId('scene.play').click();
  await expect.poll(() => lab.currentStep(), { timeout: 10_000 }).toBeGreaterThan(222);
  await page.getByTestId('scene.play').click();
  const at = await lab.currentStep();
  await page.getByTestId('scene.back').click();
  expect(await lab.currentStep()).toBe(at - 1);
  // A moment where shrinker_free() waits for shrink_slab's reference.
  await lab.open(`${SCENE}&step=222`);
  await expect(page.getByTestId('shrinker.fs-0')).toContainText('waiting for readers');
  const path = info.outputPath('shrinker-lifetime.png');
  await page.screenshot({ path, fullPage: true });
  expect(statSync(path).size).toBeGreaterThan(20_000);
});

test('a bad seed in the URL is reported and the default is used', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-lifetime&seed=banana&step=3');
  await expect(page.getByRole('status').filter({ hasText: 'Ignored seed=banana' })).toBeVisible();
  expect(await lab.currentStep()).toBe(3);
  await page.getByTestId('scene.seed').fill('-4');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('alert')).toContainText('whole number');
});
