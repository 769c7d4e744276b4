// SPDX-License-Identifier: GPL-2.0-only
// The built folder (make dist; the e2e tests serve it as make start does)
// needs nothing from the network: every request goes to the server the
// folder is on, and a scene, a lesson, talk mode (a lesson's, and every
// slide of a talk of talks/) and an embed all run.
import { expect, test } from '@playwright/test';
import { kernelWithTrait, Lab } from './lab';

test('dist runs with the network blocked', async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const blocked: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    blocked.push(url);
    return route.abort('internetdisconnected');
  });
  const l = new Lab(page);
  for (const q of ['?scene=shrinker-churn&step=100', '?lesson=bitmap-recheck', '?scene=memcg-bitmap&embed=1&step=300']) {
    await l.open(q);
    await expect(l.highlightedLine().or(page.getByText('No kernel line')).first()).toBeVisible();
  }
  await expect(page.getByTestId('embed.open')).toHaveAttribute('href', /scene=memcg-bitmap/);
  await page.goto('?lesson=intro-reclaim&talk=1');
  await expect(page.getByTestId('talk.audience')).toBeVisible();
  // A talk of talks/ (bundled by make dist), every slide: live states of every scene, their code, the patches' hunks.
  await page.goto('?deck=five-series');
  await page.waitForFunction(() => window.__lab !== undefined); // the page's code may load after the load event
  const slides = await page.evaluate(() => window.__lab!.talks.find((t) => t.id === 'five-series')!.slides);
  for (let s = 0; s < slides; s++) {
    if (s > 0) await page.keyboard.press('ArrowRight');
    const slide = page.getByTestId('talk.slide');
    await expect(slide).toHaveAttribute('data-slide', String(s));
    const kind = await slide.getAttribute('data-kind');
    if (kind === 'demo') await expect(slide.getByTestId('code.line.current')).toBeVisible();
    if (kind === 'patch') await expect(slide.locator('.patch-code .pl-add, .patch-code .pl-del').first()).toBeVisible();
  }
  expect(blocked).toEqual([]);
});

test('a permalink with a program, a kernel and a random schedule reproduces the same scene state', async ({ page }) => {
  const l = new Lab(page);
  await l.open(`?scene=memcg-bitmap&variant=${kernelWithTrait('memcg-bitmap', 'no-recheck').name}&policy=random&seed=88&prog=a0.0,c3.1,r3&step=600`);
  const state = await page.evaluate(() => JSON.stringify(window.__lab!.state()));
  const url = page.url();
  const other = await page.context().newPage();
  const l2 = new Lab(other);
  await l2.open(url.slice(url.indexOf('?')));
  expect(await other.evaluate(() => JSON.stringify(window.__lab!.state()))).toBe(state);
});
