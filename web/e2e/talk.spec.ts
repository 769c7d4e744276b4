// SPDX-License-Identifier: GPL-2.0-only
// Talk mode: the presenter window drives the audience window, slide by
// slide and step by step, through a BroadcastChannel.
import { expect, test, type Page } from '@playwright/test';
import { labFields } from './lab';

const lab = (page: Page) => labFields(page);
const slideOf = async (page: Page) => Number(await page.getByTestId('talk.slide').getAttribute('data-slide'));

test('presenter and audience stay identical over 20 steps of the demo', async ({ context }) => {
  const audience = await context.newPage();
  await audience.goto('?lesson=bitmap-recheck&talk=1');
  await expect(audience.getByTestId('talk.audience')).toBeVisible();
  const presenter = await context.newPage();
  await presenter.goto('?lesson=bitmap-recheck&talk=presenter');
  await expect(presenter.getByTestId('talk.presenter')).toBeVisible();
  await expect(presenter.getByTestId('talk.notes')).toBeVisible();
  await expect.poll(async () => (await lab(presenter)).ready && (await lab(audience)).ready).toBe(true);

  // To the demo slide, from the presenter's keyboard.
  for (let i = 0; i < 3; i++) await presenter.keyboard.press('ArrowRight');
  await expect.poll(() => slideOf(audience)).toBe(3);
  await expect(audience.getByTestId('talk.slide')).toContainText('CPU0');
  await expect(presenter.getByTestId('talk.next-slide')).toHaveText('Goals');

  // The speaker shows the solution's kernel and schedule, then steps it.
  await presenter.getByTestId('scene.seed').fill('88');
  await presenter.getByTestId('scene.seed').press('Enter');
  await presenter.getByTestId('scene.policy').selectOption('random');
  await expect.poll(async () => {
    const a = await lab(audience);
    return a.ready && a.seed === 88;
  }).toBe(true);
  for (let i = 0; i < 20; i++) {
    await presenter.getByTestId('scene.step').click();
    const p = await lab(presenter);
    await expect.poll(async () => (await lab(audience)).step).toBe(p.step);
    expect(await audience.evaluate(() => window.__lab!.narration())).toBe(
      await presenter.evaluate(() => window.__lab!.narration()),
    );
  }
  expect((await lab(audience)).step).toBe(20);
  await audience.screenshot({ path: 'test-results/talk-audience.png' });
  await presenter.screenshot({ path: 'test-results/talk-presenter.png' });
});

test('talk keys: arrows move, ? shows help, . steps the demo', async ({ page }) => {
  await page.goto('?lesson=intro-reclaim&talk=1');
  await expect(page.getByTestId('talk.audience')).toBeVisible();
  await expect(page.getByTestId('talk.slide')).toContainText('Where shrinkers sit in reclaim');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => slideOf(page)).toBe(1);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => slideOf(page)).toBe(0);
  await page.keyboard.press('?');
  await expect(page.getByTestId('keys.help')).toContainText('fullscreen');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('keys.help')).toHaveCount(0);
  await expect.poll(async () => (await lab(page)).ready).toBe(true);
  await page.keyboard.press('.');
  await expect.poll(async () => (await lab(page)).step).toBe(1);
});
