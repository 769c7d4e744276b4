#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
// make screenshots: the README's pictures, docs/img/<scene>.png for every
// registered scene (window.__lab.scenes, read from the page) and
// docs/img/landing.png, taken in Debian's Chromium driven by Playwright at
// 1280x720 against the production build served as `make start` serves it.
// A scene is shown at the step STEPS names (a step where its drawing has
// something to say), else at 40% of its run, scrolled to below its blurb.
import { mkdirSync } from 'node:fs';
import { checkArgs, launch, opt, serve } from './bench-browser.mjs';

const PORT = Number(opt('port', process.env.SCREENSHOT_PORT ?? '4194'));
const ROOT = opt('root', 'dist');
const OUT = opt('out', 'docs/img');
checkArgs('node scripts/screenshots.mjs [--port 4194] [--root dist] [--out docs/img]', ['port', 'root', 'out']);

// Where each scene's picture stands: a share of its run (0..1), or the last
// event of a kind (planted-bugs: its last report, KASAN's).
const STEPS = { 'shrinker-lifetime': 0.45, 'planted-bugs': { last: 'REPORT' } };

const base = `http://127.0.0.1:${PORT}/`;
const stop = await serve(PORT, ROOT);
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
const ready = () => page.waitForFunction(() => window.__lab?.ready === true, null, { timeout: 120_000 });
mkdirSync(OUT, { recursive: true });
try {
  await page.goto(base);
  await page.getByTestId('landing').waitFor();
  await page.screenshot({ path: `${OUT}/landing.png` });
  console.log(`${OUT}/landing.png`);
  await page.goto(`${base}?scene=shrinker-lifetime`);
  await ready();
  const scenes = await page.evaluate(() => window.__lab.scenes);
  for (const id of scenes) {
    await page.goto(`${base}?scene=${id}`);
    await ready();
    const length = await page.evaluate(() => window.__lab.length);
    const at = STEPS[id] ?? 0.4;
    const step =
      typeof at === 'number'
        ? Math.round(at * (length - 1))
        : await page.evaluate((kind) => {
            let last = -1;
            for (let i = window.__lab.find(kind, 0); i >= 0; i = window.__lab.find(kind, i + 1)) last = i;
            return last;
          }, at.last);
    if (step < 0 || step >= length) throw new Error(`${id}: no step to stand on (${JSON.stringify(at)})`);
    await page.evaluate((s) => window.__lab.goTo(s), step);
    await page.waitForFunction((s) => window.__lab.step === s, step);
    // Two frames: the step drawn, then the panes that follow it.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // The picture starts under the scene's blurb: its drawing, the time axis and the code pane.
    await page.evaluate(() => {
      const blurb = document.querySelector('.blurb');
      if (blurb) window.scrollTo(0, blurb.getBoundingClientRect().bottom + window.scrollY + 4);
    });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: `${OUT}/${id}.png` });
    console.log(`${OUT}/${id}.png (step ${step} of ${length})`);
  }
} finally {
  await browser.close();
  stop();
}
