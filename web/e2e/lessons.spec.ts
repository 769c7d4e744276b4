// SPDX-License-Identifier: GPL-2.0-only
// A lesson done by hand: its goals tick as the run meets them, it ends at
// the real patch, and the browser remembers it.
import { expect, test, type Page } from '@playwright/test';
import { Lab, labFields, reportTextTop } from './lab';

const prog = (page: Page) => labFields(page);

async function press(page: Page, action: string) {
  const before = (await prog(page)).prog;
  await page.getByTestId(`action.${action}`).click();
  await expect.poll(async () => {
    const l = await prog(page);
    return l.ready && l.prog !== before;
  }).toBe(true);
}

test('the bitmap lesson by hand: add, drain, reclaim, and the real patch at the end', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?lesson=bitmap-set-and-clear');
  await expect(page.getByTestId('lesson')).toContainText('The shrinker bitmap');
  await expect(page).toHaveURL(/scene=memcg-bitmap/);
  await expect(page.getByTestId('goal.set')).toHaveAttribute('data-met', '0');
  await page.getByTestId('lesson.hint').click();
  await expect(page.getByTestId('lesson.hints')).toContainText('Add an object');

  await page.getByTestId('action.memcg').selectOption('0');
  await page.getByTestId('action.mount').selectOption('0');
  await press(page, 'add');
  await expect(page.getByTestId('goal.set')).toHaveAttribute('data-met', '1');
  await press(page, 'drain');
  await press(page, 'reclaim');
  await page.keyboard.press('End');
  await expect(page.getByTestId('goal.clear')).toHaveAttribute('data-met', '1');
  const patch = page.getByTestId('lesson.patch');
  await expect(patch).toContainText('mm/shrinker.c lines 205–220 on branch v6.12');
  await expect(page.getByTestId('lesson.message-id')).toHaveText('153112469064.4097.2581798353485457328.stgit@localhost.localdomain');

  // Stepping back before the clear un-ticks it: goals are read from the run up to the step shown.
  await page.keyboard.press('Home');
  await expect(page.getByTestId('goal.clear')).toHaveAttribute('data-met', '0');

  // Progress stays in this browser.
  await page.reload();
  await expect(page.getByTestId('lesson')).toContainText('done');
  await expect(page.getByTestId('lesson.picker').locator('option', { hasText: 'The shrinker bitmap' })).toContainText('✔');
});

test('showing the solution meets the goals; the picker opens another lesson', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?lesson=rwsem-bailout');
  await expect(page.getByTestId('goal.tryfail')).toHaveAttribute('data-met', '0');
  await page.getByTestId('lesson.solve').click();
  await expect(page.getByTestId('goal.tryfail')).toHaveAttribute('data-met', '1');
  await page.getByTestId('lesson.picker').selectOption('free-while-counting');
  await expect(page).toHaveURL(/lesson=free-while-counting/);
  await expect(page.getByTestId('lesson')).toContainText('Break it');
});

test('"Show the solution" meets the goals but does not mark the lesson done; the learner’s own run does', async ({ page }) => {
  const l = new Lab(page);
  await page.goto('./');
  await page.evaluate(() => localStorage.clear());
  await l.open('?lesson=rwsem-bailout');
  await page.getByTestId('lesson.solve').click();
  await expect(page.getByTestId('goal.tryfail')).toHaveAttribute('data-met', '1');
  await expect(page.getByTestId('lesson.by-solution')).toBeVisible();
  await expect(page.locator('.lesson-done')).toHaveCount(0);
  // Not on a reload of the solution's link either.
  await page.reload();
  await expect(page.getByTestId('goal.tryfail')).toHaveAttribute('data-met', '1');
  await expect(page.locator('.lesson-done')).toHaveCount(0);
  await page.getByTestId('lesson.index').click();
  await expect(page.getByTestId('landing.lesson.rwsem-bailout')).toHaveAttribute('data-done', '0');
  await expect(page.getByTestId('landing.lesson.rwsem-bailout')).toContainText('solution shown');

  // Start over, and reach the goal by stepping: now it is done, and the index says so.
  await l.open('?lesson=rwsem-bailout');
  await page.getByTestId('lesson.restart').click();
  await expect(page.getByTestId('goal.tryfail')).toHaveAttribute('data-met', '0');
  await page.keyboard.press('End');
  await expect(page.getByTestId('goal.tryfail')).toHaveAttribute('data-met', '1');
  await expect(page.locator('.lesson-done')).toHaveCount(1);
  await page.goto('./');
  const item = page.getByTestId('landing.lesson.rwsem-bailout');
  await expect(item).toHaveAttribute('data-done', '1');
  await expect(item).toContainText('1 of 1 goal reached');
  await expect(item.getByRole('link', { name: /as slides/ })).toHaveAttribute('href', '?lesson=rwsem-bailout&talk=1');
});

test('a lesson opens a report it sends the learner to in view: each goal\'s event at 1280×720', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const l = new Lab(page);
  await l.open('?lesson=reading-reports');
  for (const goal of ['lockdep', 'atomic', 'kasan']) {
    // At the end every goal is met (goals are read up to the step shown), and the lesson at the top of the window.
    await page.keyboard.press('End');
    await expect(page.getByTestId(`goal.${goal}`)).toHaveAttribute('data-met', '1');
    await page.evaluate(() => window.scrollTo(0, 0));
    const at = page.getByTestId(`goal.${goal}`).getByRole('button');
    await at.click();
    const n = Number((await at.textContent())!.replace(/\D+/g, ''));
    await expect.poll(() => l.currentStep()).toBe(n);
    await expect.poll(() => reportTextTop(page), `goal ${goal}: the report text starts in the window`).toMatchObject({ inView: true });
  }
  await page.screenshot({ path: test.info().outputPath('lesson-report-1280x720.png') });
});

test('lesson 07 done by its text alone: the next-decision panel, open under the lesson, says where each CPU is', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const l = new Lab(page);
  await l.open('?lesson=sentinel-collision');
  // The panel the lesson's steps use is under its text, not below the scene.
  const lessonBox = (await page.getByTestId('lesson').boundingBox())!;
  const panelBox = (await page.getByTestId('sched.panel').boundingBox())!;
  expect(panelBox.y - (lessonBox.y + lessonBox.height), 'the panel follows the lesson').toBeLessThan(24);
  // What the learner reads: the text and hints name the functions and the lock the panel shows.
  const hints: string[] = [];
  for (let i = 0; i < 2; i++) {
    await page.getByTestId('lesson.hint').click();
    hints.push((await page.getByTestId('lesson.hints').textContent())!);
  }
  const words = `${await page.getByTestId('lesson').textContent()} ${hints.join(' ')}`;
  for (const w of ['release_pages()', 'next-decision panel', 'next function »', 'takes &lruvec->lru_lock', 'switch to the other', 'folio_batch_add_lru()']) expect(words).toContain(w);

  const where = async (c: number) => (await page.getByTestId(`sched.where.${c}`).textContent()) ?? '';
  const met = async () => (await page.getByTestId('goal.collide').getAttribute('data-met')) === '1';
  let presses = 0;
  const press = async (id: string) => {
    const before = await labFields(page);
    await page.getByTestId(id).click();
    presses++;
    await expect.poll(async () => { const f = await labFields(page); return f.ready && (f.sched !== before.sched || f.step !== before.step); }).toBe(true);
    await expect(page.getByTestId('sched.following')).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(async () => (await labFields(page)).ready).toBe(true);
  };
  // "Run the first CPU until it takes &lruvec->lru_lock in folio_batch_add_lru() ... then switch to the other for one step".
  while (!/folio_batch_add_lru\(\).*takes &lruvec->lru_lock/.test(await where(0))) {
    expect(presses, 'presses to bring CPU 0 to folio_batch_add_lru()').toBeLessThan(30);
    await press('sched.follow.0');
  }
  await press('sched.cpu.1');
  // "... and let the timed policy go on": End, then the goal's button brings the event.
  await page.keyboard.press('End');
  await expect.poll(met, 'the goal is met once the run has gone on').toBe(true);
  const at = page.getByTestId('goal.collide').getByRole('button');
  await at.click();
  const n = Number((await at.textContent())!.replace(/\D+/g, ''));
  await expect.poll(() => l.currentStep()).toBe(n);
  expect(await where(0), 'CPU 0 spins at a sentinel on the lock CPU 1 holds').toMatch(/folio_lru_batch_relock_irqsave\(\).*held by CPU1: spins/);
  await page.screenshot({ path: test.info().outputPath('sentinel-collision-1280x720.png') });
  console.log(`lesson 07 by its text: ${presses} presses`);
});
