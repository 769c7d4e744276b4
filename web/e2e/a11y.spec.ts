// SPDX-License-Identifier: GPL-2.0-only
// axe-core on every registered scene and every lesson: no serious or critical
// violation, in the light theme the app ships.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { Lab, labFields } from './lab';

const lessons = readdirSync('lessons')
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(`lessons/${f}`, 'utf8')) as { id: string; trace?: unknown })
  .filter((l) => !l.trace) // a lesson on a trace is on the trace page: trace-import.spec.ts runs axe there
  .map((l) => l.id);

async function serious(page: import('@playwright/test').Page) {
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

// The scenes come from the registry (through the test handle), so a new scene is checked without a line here.
test('every registered scene has no serious accessibility violations, and its screenshot is saved', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?step=0');
  const scenes = (await labFields(page)).scenes;
  test.setTimeout(60_000 * scenes.length);
  expect(scenes).toContain('inode-lru');
  for (const scene of scenes) {
    await l.open(`?scene=${scene}&step=40`);
    expect.soft(await serious(page), `scene ${scene}`).toEqual([]);
    await page.screenshot({ path: `test-results/scene-${scene}.png`, fullPage: true });
  }
});

for (const id of lessons) {
  test(`lesson ${id} has no serious accessibility violations`, async ({ page }) => {
    // axe reads every element: release-pages-bitmap's page has about 8,000, which took it 24 s alone
    // and past a minute beside another worker.
    test.setTimeout(180_000);
    const l = new Lab(page);
    await l.open(`?lesson=${id}`);
    expect(await serious(page)).toEqual([]);
  });
}

test('each step is told in words in a live region', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-lifetime&step=0');
  const live = page.getByTestId('narration');
  await expect(live).toHaveAttribute('aria-live', 'polite');
  await l.goTo(30);
  const said = await live.textContent();
  expect(said).toBe(await l.narration());
  expect(said).toMatch(/^CPU\d /);
  await page.keyboard.press('ArrowRight');
  await expect(live).not.toHaveText(said!);
});

test('talk mode (the projector theme) has no serious accessibility violations', async ({ page }) => {
  await page.goto('?lesson=bitmap-recheck&talk=1');
  await expect(page.getByTestId('talk.audience')).toBeVisible();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('talk.slide')).toHaveAttribute('data-slide', '3');
  await expect(page.getByTestId('scene.ready')).toBeVisible();
  expect(await serious(page)).toEqual([]);
});

test('with reduced motion asked for, nothing animates', async ({ browser }) => {
  for (const reducedMotion of ['no-preference', 'reduce'] as const) {
    const page = await browser.newPage({ reducedMotion });
    const l = new Lab(page);
    await l.open('?scene=memcg-bitmap&prog=p&step=0');
    await page.getByTestId('action.add').click();
    const flipped = page.locator('.cell.flipped rect');
    await expect(flipped).toHaveCount(1);
    const name = await flipped.evaluate((el) => getComputedStyle(el).animationName);
    expect(name).toBe(reducedMotion === 'reduce' ? 'none' : 'bit-flip');
    await page.close();
  }
});

test('the CPU cards\' text, their chips included, is 12 px or more', async ({ page }) => {
  const l = new Lab(page);
  // A step inside an RCU read-side section: a CPU card shows its chip.
  await l.open('?scene=shrinker-churn&seed=3&step=0');
  const at = await page.evaluate(() => window.__lab!.find('RCU_READ_LOCK', 0));
  expect(at).toBeGreaterThan(0);
  await l.goTo(at);
  await expect(page.locator('.cpu-card .flag').first()).toBeVisible();
  const small = await page.locator('.cpu-cards').evaluate((cards) =>
    [...cards.querySelectorAll('*')]
      .filter((e) => [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim()))
      .map((e) => ({ text: (e.textContent ?? '').trim().slice(0, 40), px: parseFloat(getComputedStyle(e).fontSize) }))
      .filter((x) => x.px < 12),
  );
  expect(small).toEqual([]);
});
