// SPDX-License-Identifier: GPL-2.0-only
// Finding things: the bare URL shows every registered scene as a card and
// every lesson with this browser's progress and every talk; the header's picker reaches
// every scene in two clicks from any scene; screenshots of the landing view.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { Lab, labFields } from './lab';

const lessons = readdirSync('lessons')
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(`lessons/${f}`, 'utf8')) as { id: string; title: string; scene: string });

test('the bare URL shows a card per registered scene and every lesson, each one click from its start', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?step=0');
  const scenes = (await labFields(page)).sceneDefs;
  await page.goto('./');
  await expect(page.getByTestId('landing')).toBeVisible();
  await expect(page.locator('.scene-card')).toHaveCount(scenes.length);
  for (const s of scenes) {
    const card = page.getByTestId(`landing.scene.${s.id}`);
    await expect(card).toContainText(s.title);
    await expect(card.locator('svg')).toBeVisible();
    await expect(card).toContainText(`Kernels: ${s.variants.join(', ')}.`);
    expect((await card.locator('.scene-question').textContent())!.trim()).toMatch(/\?$/);
  }
  await expect(page.locator('.lesson-list li')).toHaveCount(lessons.length);
  for (const x of lessons) await expect(page.getByTestId(`landing.lesson.${x.id}`)).toContainText(x.title);
  // One click: a card opens its scene, ready, and the URL reproduces it.
  for (const s of scenes) {
    await page.goto('./');
    await page.getByTestId(`landing.scene.${s.id}`).locator('a').click();
    await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
    expect((await labFields(page)).scene).toBe(s.id);
    await expect(page).toHaveURL(new RegExp(`scene=${s.id}`));
  }
  await page.goto('./');
  await page.getByTestId(`landing.lesson.${lessons[1].id}`).locator('a').first().click();
  await expect(page.getByTestId('lesson')).toBeVisible({ timeout: 30_000 });  // Every talk of talks/ (the registry), one click from talk mode.
  await page.goto('./');
  const talks = readdirSync('talks').filter((f) => f.endsWith('.json')).map((f) => ({ id: f.slice(0, -5) }));
  await expect(page.locator('.talk-list li')).toHaveCount(talks.length);
  await page.getByTestId(`landing.talk.${talks[0].id}`).locator('a').first().click();
  await expect(page.getByTestId('talk.audience')).toBeVisible({ timeout: 30_000 });
});

test('one list of lessons: the header\'s picker and the landing view name every lesson file, in the same order', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-lifetime&step=0');
  const picked = await page.getByTestId('lesson.picker').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v));
  await page.goto('./');
  const listed = await page.locator('.lesson-list li').evaluateAll((ls) => ls.map((li) => li.getAttribute('data-testid')!.replace('landing.lesson.', '')));
  const files = lessons.map((x) => x.id);
  expect(listed).toEqual(files);
  expect(picked).toEqual(files);
});

test('lesson progress shows on the landing view', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByTestId(`landing.lesson.${lessons[0].id}`)).toHaveAttribute('data-done', '0');
  await page.evaluate((id) => localStorage.setItem('reclaim-lab.lessons.v1', JSON.stringify({ [id]: { done: '2026-01-01T00:00:00Z' } })), lessons[0].id);
  await page.reload();
  await expect(page.getByTestId(`landing.lesson.${lessons[0].id}`)).toHaveAttribute('data-done', '1');
  await expect(page.getByTestId(`landing.lesson.${lessons[0].id}`)).toContainText('done');
  await expect(page.getByRole('heading', { name: /Lessons/ })).toContainText(`1 of ${lessons.length} done`);
});

test('from any scene, the header reaches every other scene, and the landing view, in two clicks', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=lru-batch&step=5');
  const scenes = (await labFields(page)).sceneDefs;
  for (const s of scenes) {
    await page.getByTestId('scene.picker').locator('summary').click();
    await page.getByTestId(`scene.picker.${s.id}`).click();
    await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
    expect((await labFields(page)).scene).toBe(s.id);
    await expect(page.getByTestId(`scene.picker.${s.id}`)).toHaveAttribute('aria-current', 'page');
  }
  // A lesson from a scene: the lesson picker, one choice.
  await page.getByTestId('lesson.picker').selectOption(lessons[2].id);
  await expect(page.getByTestId('lesson')).toBeVisible({ timeout: 30_000 });
  // And back to the landing view.
  await page.getByTestId('scene.picker').locator('summary').click();
  await page.getByTestId('scene.picker.all').click();
  await expect(page.getByTestId('landing')).toBeVisible();
});

for (const [w, h] of [
  [1500, 1000],
  [1280, 720],
]) {
  test(`the landing view at ${w}×${h} (screenshot)`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    await page.goto('./');
    await expect(page.getByTestId('landing')).toBeVisible();
    // No serious accessibility violation; nothing overflows sideways.
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w);
    // The three ways in start above the fold: the scenes, the talks (a short list, in the side column first) and the lessons.
    for (const id of ['landing-scenes', 'landing-talks', 'landing-lessons']) {
      const box = (await page.locator(`#${id}`).boundingBox())!;
      expect(box.y + box.height, `${id} ends at y = ${box.y + box.height}`).toBeLessThanOrEqual(h);
    }
    const firstTalk = (await page.locator('.talk-list li').first().boundingBox())!;
    expect(firstTalk.y + firstTalk.height, 'the first talk').toBeLessThanOrEqual(h);
    await page.screenshot({ path: test.info().outputPath(`landing-${w}x${h}.png`) });
  });
}

test('talk mode and embeds reach every scene in two clicks: the audience menu (pointer or m), the presenter’s, the embed’s picker', async ({ page, context }) => {
  const l = new Lab(page);
  await l.open('?step=0');
  const scenes = (await labFields(page)).sceneDefs;
  const menu = page.getByTestId('talk.menu');
  // While the speaker talks the audience sees no menu; moving the pointer brings it, for every scene.
  for (const s of scenes) {
    await page.goto('?lesson=intro-reclaim&talk=1');
    await expect(page.getByTestId('talk.audience')).toBeVisible();
    await expect(menu).not.toHaveClass(/shown/);
    expect(await menu.evaluate((e) => e.getBoundingClientRect().top)).toBeGreaterThanOrEqual(page.viewportSize()!.height - 1);
    await page.mouse.move(300, 300);
    await page.mouse.move(320, 310);
    await expect(menu).toHaveClass(/shown/);
    await menu.getByTestId('scene.picker').locator('summary').click();
    await menu.getByTestId(`scene.picker.${s.id}`).click();
    await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
    expect((await labFields(page)).scene).toBe(s.id);
    await expect(page.getByTestId('talk.audience')).toHaveCount(0);
  }
  // By keyboard: m shows it with focus in it, Escape hides it; the current state opens in the page.
  await page.goto('?lesson=intro-reclaim&talk=1');
  await expect.poll(async () => (await labFields(page)).ready).toBe(true);
  await page.keyboard.press('m');
  await expect(menu).toHaveClass(/shown/);
  expect(await menu.evaluate((e) => e.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(menu).not.toHaveClass(/shown/);
  await page.keyboard.press('m');
  await menu.getByTestId('talk.leave').click();
  await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('talk.audience')).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get('talk')).toBeNull();
  // The presenter's window always shows it.
  await page.goto('?lesson=intro-reclaim&talk=presenter');
  await expect(page.getByTestId('talk.menu').getByTestId('scene.picker')).toBeVisible();
  await expect(page.getByTestId('talk.menu').getByTestId('lesson.picker')).toBeVisible();
  // An embed opens the page of any scene in a new tab, never inside its frame: two clicks.
  await page.goto('?scene=shrinker-lifetime&embed=1');
  await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('scene.picker').locator('summary').click();
  const other = scenes.find((s) => s.id !== 'shrinker-lifetime')!;
  const [tab] = await Promise.all([context.waitForEvent('page'), page.getByTestId(`scene.picker.${other.id}`).click()]);
  await expect(tab.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  expect(new URL(tab.url()).searchParams.get('scene')).toBe(other.id);
  expect(new URL(tab.url()).searchParams.get('embed')).toBeNull();
  await tab.close();
});
