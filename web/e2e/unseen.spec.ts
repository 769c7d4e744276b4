// SPDX-License-Identifier: GPL-2.0-only
// What each CPU has not yet seen (tso and relaxed), in the CPU cards:
// lesson why-this-barrier's failing schedule on break-no-mb-recheck under
// relaxed, at its stale read, where the reading CPU's card says it has not
// seen the writer's store to the count it read; under sc, nothing of it.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Lab } from './lab';

interface LessonFile { solution: { variant: string; seed: number; policy: string; memory: string; sched: string; prog: string } }
const SOLUTION = JSON.parse(readFileSync('lessons/14-why-this-barrier.json', 'utf8')).solution as LessonFile['solution'];
const query = (memory: string) =>
  `?scene=memcg-bitmap&variant=${SOLUTION.variant}&seed=${SOLUTION.seed}&policy=${SOLUTION.policy}&memory=${memory}` +
  `&sched=${SOLUTION.sched}&prog=${SOLUTION.prog}`;

test('at the stale read, the reading CPU\'s card says it has not yet seen the other CPU\'s store to l->nr_items', async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const lab = new Lab(page);
  await lab.open(query('relaxed'));
  const stale = await page.evaluate(() => window.__lab!.find('MM_STALE', 0));
  expect(stale).toBeGreaterThan(0);
  await lab.goTo(stale);
  const ev = (await page.evaluate(() => window.__lab!.event()))!;
  const reader = ev.cpu;
  const writer = ev.args[2]; // MM_STALE's store_cpu
  expect(writer).not.toBe(reader);
  const mine = page.getByTestId(`cpu.${reader}.unseen`);
  await expect(mine).toContainText(new RegExp(`^CPU${reader} has not yet seen \\d+ stores? of CPU${writer}:`), { timeout: 30_000 });
  // The location the load read comes first: the count it reads 0 of, the writer's store 1.
  await expect(mine.locator('li').first()).toHaveText(new RegExp(`^the load's: l->nr_items in .*: reads 0, CPU${writer}'s newest store wrote 1$`));
  // The writer's card says what it has not seen in turn, or that it has seen everything: never nothing.
  await expect(page.getByTestId(`cpu.${writer}.unseen`)).toHaveText(/has not yet seen|has seen every store/);

  // Readable at 1280×720: no horizontal scroll, and no text of a card's block cut by its box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  for (const c of [reader, writer]) {
    const box = page.getByTestId(`cpu.${c}`);
    const clipped = await box.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    expect(clipped, `CPU${c}'s card cuts its text`).toBe(false);
  }
  await mine.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('unseen-stale-1280x720.png') });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: info.outputPath('unseen-stale-1920x1080.png') });

  // Stepping back to the start: before the writer's store nobody has missed it.
  await lab.goTo(0);
  await expect(mine).not.toContainText('l->nr_items', { timeout: 30_000 });
});

test('under sc the cards say nothing of unseen stores', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open(query('sc').replace(`&sched=${SOLUTION.sched}`, ''));
  await expect(page.getByTestId('cpu.0')).toBeVisible();
  await expect(page.locator('[data-testid$=".unseen"]')).toHaveCount(0);
});
