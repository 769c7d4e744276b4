// SPDX-License-Identifier: GPL-2.0-only
// The three lessons on why series were taken, reverted or fixed, done by
// hand as a learner would: the inode LRU's share of reclaim, the SRCU
// series' unregister, and release_pages() past its bitmap. Each ends at
// its goals ticked from the run and the real code.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Lab } from './lab';

/** The lesson's goal on shrink_slab()'s share, as lessons/09-inode-lru.json states it. */
const shareGoal = (JSON.parse(readFileSync('lessons/09-inode-lru.json', 'utf8')) as {
  goals: { id: string; check: { figure?: { atLeast: number } } }[];
}).goals.find((g) => g.id === 'share')!.check.figure!.atLeast;
const shareOf = async (page: Page) =>
  Number((await page.getByTestId('inode.share.value').textContent())!.replace('%', ''));

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await page.evaluate(() => localStorage.clear());
});

test('inode-lru: on the LRU, the busy inodes rotate; 48 inodes of one page push shrink_slab() past the goal\'s share of reclaim', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?lesson=inode-lru');
  // The solution meets both goals, the figure read at its run's end, and marks nothing done.
  await page.getByTestId('lesson.solve').click();
  await expect(page.getByTestId('goal.share')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('goal.rotate')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('lesson.by-solution')).toBeVisible();
  await expect(page.locator('.lesson-done')).toHaveCount(0);
  await page.getByTestId('lesson.restart').click();
  await expect(page.getByTestId('goal.share')).toHaveAttribute('data-met', '0');
  await expect(page).not.toHaveURL(/variant=/);
  await page.keyboard.press('End');
  // v6.12: a small share (under a third of the goal's) and nothing to rotate; the goals are on the other kernel.
  await expect(page.getByTestId('inode.share.value')).toHaveText(/^\d+\.\d%$/);
  expect(await shareOf(page)).toBeLessThan(shareGoal / 3);
  await expect(page.getByTestId('goal.rotate')).toHaveAttribute('data-met', '0');
  await page.getByTestId('scene.variant').selectOption('inode-before');
  await expect(page).toHaveURL(/variant=inode-before/);
  await l.open(page.url());
  // The switch keeps the cursor where it was, at the end: from the start, the next rotation.
  await page.keyboard.press('Home');
  await expect(page.getByTestId('goal.rotate')).toHaveAttribute('data-met', '0');
  await page.getByTestId('inode.next.rotated').click();
  await expect(page.getByTestId('goal.rotate')).toHaveAttribute('data-met', '1');
  // The index shows the lesson half done, by the learner's own run.
  const here = page.url();
  await page.getByTestId('lesson.index').click();
  const item = page.getByTestId('landing.lesson.inode-lru');
  await expect(item).toContainText('1 of 2 goals reached');
  await expect(item).not.toContainText('solution shown');
  await expect(item).toHaveAttribute('data-done', '0');
  await l.open(here);
  await page.keyboard.press('End');
  await expect(page.getByTestId('goal.share')).toHaveAttribute('data-met', '0'); // 12 × 4: short of the goal
  expect(await shareOf(page)).toBeLessThan(shareGoal);
  await page.getByTestId('inode.size.inodes').fill('48');
  await page.getByTestId('inode.size.pages').fill('1');
  await page.getByTestId('inode.sizes.run').click();
  await expect(page).toHaveURL(/prog=n48\.p1/);
  await expect.poll(() => page.evaluate(() => window.__lab?.ready ?? false)).toBe(true);
  await page.keyboard.press('End');
  expect(await shareOf(page)).toBeGreaterThanOrEqual(shareGoal);
  await expect(page.getByTestId('goal.share')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('goal.rotate')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('lesson.patch')).toContainText('fs/inode.c lines 452–467 on branch v6.12');
  await expect(page.getByTestId('lesson.message-id')).toHaveText('20210614211904.14420-1-hannes@cmpxchg.org');
  await expect(page.locator('.lesson-done')).toHaveCount(1);
  // Stepping back off the last event: the share is read at the end of the run.
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('goal.share')).toHaveAttribute('data-met', '0');
  await page.goto('./');
  await expect(page.getByTestId('landing.lesson.inode-lru')).toHaveAttribute('data-done', '1');
  await expect(page.getByTestId('landing.lesson.inode-lru')).toContainText('2 of 2 goals reached');
});

test('srcu-unregister: switched to the SRCU series, an unmount sleeps in synchronize_srcu() for a grace period', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?lesson=srcu-unregister');
  await page.keyboard.press('End');
  await expect(page.getByTestId('goal.sleep')).toHaveAttribute('data-met', '0');
  await page.getByTestId('scene.variant').selectOption('srcu');
  await expect(page).toHaveURL(/variant=srcu/);
  await l.open(page.url());
  await page.keyboard.press('End');
  await expect(page.getByTestId('goal.sleep')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('goal.gp-end')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('lesson.patch')).toContainText('mm/vmscan.c lines 771–793 on branch srcu-shrinkers');
  await expect(page.getByTestId('lesson.message-id')).toHaveText('20230223132725.11685-1-zhengqi.arch@bytedance.com');
  // The goal's link stands on the sleep, at synchronize_srcu()'s line; the grace period has not ended there yet.
  await page.getByTestId('goal.sleep').getByRole('button').click();
  await expect.poll(async () => (await l.site())?.func).toBe('unregister_shrinker');
  await expect(l.highlightedLine()).toContainText('synchronize_srcu(&shrinker_srcu);');
  await expect(page.getByTestId('goal.gp-end')).toHaveAttribute('data-met', '0');
});

test('release-pages-bitmap: 537 pages in one release_pages() come off 31 at a time, with no BUG', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?lesson=release-pages-bitmap');
  await page.keyboard.press('End');
  await expect(page.getByTestId('goal.one-call')).toHaveAttribute('data-met', '0');
  await page.getByTestId('lru.setup.all').check();
  await page.getByTestId('lru.setup.apply').click();
  await expect(page).toHaveURL(/prog=t1%2Cp537%2Cr1%2Call|prog=t1,p537,r1,all/);
  await page.keyboard.press('End');
  await expect(page.getByTestId('goal.one-call')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('goal.returns')).toHaveAttribute('data-met', '1');
  await expect(page.locator('.lesson-done')).toHaveCount(1);
  const meta = await page.evaluate(() => window.__lab!.meta()!);
  expect(meta.reports).toHaveLength(0);
  // The lesson's patch lines: folios_put_refs()'s bitmap of PAGEVEC_SIZE bits on the port's branch.
  expect(Lab.kernelLine('lru-batch-port', 'mm/swap.c', 1021)).toMatch(/DECLARE_BITMAP\(sentinels, PAGEVEC_SIZE\);/);
});
