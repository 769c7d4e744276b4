// SPDX-License-Identifier: GPL-2.0-only
// A talk built in the page: "Present this state" (button and key t) adds
// the state on screen with a title and notes; the talk survives a reload;
// its slides are reordered, renamed and deleted; it downloads as a talk
// file; a bad file is refused with the field at fault; the good one,
// imported, opens in talk mode at its first live state.
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Lab, labFields } from './lab';

test('present this state → build → export → import → present', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=memcg-bitmap&variant=no-shrinker-bitmap&seed=1&step=100');

  // Two states, one by the key and one by the button.
  await page.keyboard.press('t');
  await expect(page.getByTestId('builder')).toBeVisible();
  await expect(page.getByTestId('builder.title')).toBeFocused();
  await page.getByTestId('builder.title').fill('Every memcg is asked');
  await page.getByTestId('builder.notes').fill('Point at the timeline.\nThen step on.');
  await page.getByTestId('builder.add').click();
  await expect(page.getByTestId('builder.slide')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('builder')).toHaveCount(0);
  await l.goTo(200);
  await page.getByTestId('builder.open').click();
  await page.getByTestId('builder.title').fill('Later');
  await page.getByTestId('builder.add').click();
  await page.getByTestId('builder.add').click(); // a third, with the state's own words as its title

  // Nothing is lost on reload.
  await page.reload();
  await expect(page.getByTestId('scene.ready')).toBeVisible();
  await page.getByTestId('builder.open').click();
  await expect(page.getByTestId('builder.slide')).toHaveCount(3);
  await expect(page.getByTestId('builder.rename').nth(2)).toHaveValue(/^memcg shrinker bitmaps.*, kernel no-shrinker-bitmap, seed 1, event 200$/);

  // Reorder, rename, delete, retitle.
  await page.getByTestId('builder.delete').nth(2).click();
  await page.getByTestId('builder.up').nth(1).click();
  await page.getByTestId('builder.rename').nth(0).fill('Later, renamed');
  await page.getByTestId('builder.talk-title').fill('Bitmaps in two slides');
  await expect(page.getByTestId('builder.rename').nth(0)).toHaveValue('Later, renamed');
  await expect(page.getByTestId('builder.rename').nth(1)).toHaveValue('Every memcg is asked');
  await page.screenshot({ path: test.info().outputPath('builder.png') });

  // Export: a talk file of the format talks/ has.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('builder.download').click()]);
  expect(download.suggestedFilename()).toBe('bitmaps-in-two-slides.json');
  const file = readFileSync((await download.path())!, 'utf8');
  const talk = JSON.parse(file) as { title: string; slides: { title: string; live: string; notes?: string[] }[] };
  expect(talk.title).toBe('Bitmaps in two slides');
  expect(talk.slides).toEqual([
    { title: 'Later, renamed', live: '?scene=memcg-bitmap&variant=no-shrinker-bitmap&seed=1&step=200' },
    { title: 'Every memcg is asked', live: '?scene=memcg-bitmap&variant=no-shrinker-bitmap&seed=1&step=100', notes: ['Point at the timeline.', 'Then step on.'] },
  ]);

  // A file that is not a talk is refused, naming the file and the field.
  const broken = JSON.stringify({ ...talk, slides: [{ ...talk.slides[0], live: '?scene=memcg-bitmap&variant=v9.9' }] });
  await page.getByTestId('builder.import').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
  await expect(page.getByTestId('builder.error')).toHaveText(/^broken\.json: slides\[0\]\.live: variant=v9\.9: memcg-bitmap runs on /);

  // The exported file, imported, opens in talk mode and presents.
  await page.getByTestId('builder.import').setInputFiles({ name: 'bitmaps.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await expect(page).toHaveURL(/deck=imported/);
  await expect(page.getByTestId('talk.audience')).toBeVisible();
  await expect(page.getByTestId('talk.slide')).toHaveAttribute('data-kind', 'demo');
  await expect(page.getByTestId('talk.slide')).toContainText('Later, renamed');
  await expect.poll(async () => (await labFields(page)).step).toBe(200);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('talk.slide')).toHaveAttribute('data-slide', '1');
  await expect.poll(async () => (await labFields(page)).step).toBe(100);
  await expect(page.locator('[data-testid="talk.slide"] [data-testid="code.line.current"]')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('imported.png') });
});
