// SPDX-License-Identifier: GPL-2.0-only
import { expect, test, type Page } from '@playwright/test';
import { Lab, labFields, type LabSite } from './lab';

const lab = (page: Page) => labFields(page);
const variant = (page: Page) => labFields(page);
const compared = (page: Page) =>
  page.evaluate(() => window.__lab!.compared());
const eventTime = (page: Page) =>
  page.evaluate(() => window.__lab!.event()!.time);

async function switchKernel(page: Page, to: string) {
  await page.getByTestId('scene.variant').selectOption(to);
  await expect.poll(async () => {
    const l = await variant(page);
    return l.ready && l.variant === to;
  }).toBe(true);
  await expect(page.getByTestId('scene.ready')).toBeVisible();
}

test('switching the kernel keeps the scenario and the seed, and shows each design', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-churn&seed=3&step=0');
  expect((await variant(page)).variant).toBe('v6.1');
  await page.keyboard.press('End');
  await expect(page.getByTestId('lock.shrinker_rwsem')).toBeVisible();
  await expect(page.getByTestId('churn.counts')).toContainText('ramfs operations');

  await switchKernel(page, 'srcu');
  await expect(page).toHaveURL(/variant=srcu/);
  await expect(page).toHaveURL(/seed=3/);
  await page.keyboard.press('End');
  await expect(page.getByTestId('srcu')).toContainText('shrinker_srcu');
  await expect(page.getByTestId('lock.shrinker_mutex')).toBeVisible();
  await expect(page.getByTestId('churn.bailouts')).toHaveText('0');

  await switchKernel(page, 'v6.12');
  await expect(page).toHaveURL(/seed=3/);
  await l.goTo(400);
  await expect(page.getByTestId('rcu.status')).toBeVisible();
  await expect(page.getByTestId('shrinker.resident-0.refcount')).toBeVisible();
  expect((await lab(page)).scene).toBe('shrinker-churn');
});

test("shrink_slab() giving up on v6.1 is shown at its real line, and the SRCU series' hunk that removes it", async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-churn&seed=1&step=0');
  await page.keyboard.press('End');
  const last = await page.getByTestId('churn.last-bailout').textContent();
  const at = Number(/at event (\d+)/.exec(last ?? '')?.[1]);
  expect(at).toBeGreaterThan(0);
  await l.goTo(at);
  const site = (await l.site()) as LabSite;
  expect(site.tree).toBe('v6.1');
  expect(site.file).toBe('mm/vmscan.c');
  const text = Lab.kernelLine('v6.1', 'mm/vmscan.c', site.line);
  expect(text).toMatch(/down_read_trylock\(&shrinker_rwsem\)|rwsem_is_contended\(&shrinker_rwsem\)/);
  await expect(l.highlightedLine()).toHaveAttribute('data-line', String(site.line));
  expect(await l.narration()).toMatch(/down_read_trylock\(shrinker_rwsem\) fails|rwsem_is_contended\(shrinker_rwsem\)/);
  // "What changed": the SRCU series removes that line; its hunk is the current one.
  await expect(page.getByTestId('diff.panel')).toBeVisible();
  await expect(page.getByTestId('diff.line.current')).toContainText(text.trim());
});

test('two kernels run side by side in lock-step by virtual time', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-churn&seed=1&step=500&compare=v6.12');
  await expect(page.getByTestId('compare.other')).toBeVisible();
  let prev = -1;
  for (let n = 0; n < 5; n++) {
    const c = (await compared(page))!;
    expect(c.variant).toBe('v6.12');
    // The compared run stands at its last event no later than the main run's time.
    expect(c.time).toBeLessThanOrEqual(await eventTime(page));
    expect(c.step).toBeGreaterThanOrEqual(prev);
    prev = c.step;
    for (let k = 0; k < 40; k++) await page.keyboard.press('ArrowRight');
  }
  await expect(page).toHaveURL(/compare=v6\.12/);
  await page.getByTestId('scene.compare').selectOption('');
  await expect(page.getByTestId('compare.other')).toHaveCount(0);
});

test("the stress figures keep the threads' direction: SRCU at least 5x down, refcount + RCU within 10%", async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-churn&seed=1&step=0');
  await page.getByTestId('figures.run').click();
  await expect(page.getByTestId('figures.table')).toBeVisible({ timeout: 120_000 });
  const change = async (v: string) =>
    Number((await page.getByTestId(`figures.${v}.change`).textContent())!.replace('−', '-').replace('%', ''));
  expect(await change('srcu')).toBeLessThanOrEqual(-80);
  expect(Math.abs(await change('v6.12'))).toBeLessThanOrEqual(10);
  await expect(page.getByTestId('figures.srcu')).toContainText('−88.8%');
  await expect(page.getByTestId('figures.v6.12')).toContainText('14120');
});

test('the stress figures run in workers of their own, show progress, and can be cancelled', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-churn&seed=1&step=0');
  // The nine runs take under a second on an idle machine: Cancel is pressed in the page as soon as it is drawn, with
  // the progress it shows then, so that the press cannot come after the last run.
  const pressed = page.evaluate(
    () =>
      new Promise<{ text: string; workers: number }>((resolve) => {
        const seen = new MutationObserver(() => {
          const cancel = document.querySelector<HTMLButtonElement>('[data-testid="figures.cancel"]');
          const progress = document.querySelector<HTMLElement>('[data-testid="figures.progress"]');
          if (!cancel || !progress) return;
          seen.disconnect();
          const at = { text: progress.textContent ?? '', workers: Number(progress.dataset.workers) };
          cancel.click();
          resolve(at);
        });
        seen.observe(document.body, { childList: true, subtree: true });
      }),
  );
  await page.getByTestId('figures.run').click();
  const at = await pressed;
  expect(at.text).toContain('of 9 runs done');
  expect(at.workers).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('figures.error')).toHaveText('Cancelled.');
  await expect(page.getByTestId('figures.run')).toBeVisible();
  await expect(page.getByTestId('figures.table')).toHaveCount(0);
  await expect(page.getByTestId('figures.progress')).toHaveCount(0);
  // And it can be run again, to its end.
  await page.getByTestId('figures.run').click();
  await expect(page.getByTestId('figures.table')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('figures.error')).toHaveCount(0);
});

test("a break-it kernel's KASAN report names the kernel line it stopped after", async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-lifetime&variant=break-no-wait&seed=1&step=0');
  await expect(page.getByTestId('run.facts')).toContainText('slow shrinkers');
  // kasan.fault=panic: the machine stops at the report.
  expect(await page.evaluate(() => window.__lab!.meta()!.status)).toBe('panic');
  await page.keyboard.press('End');
  const report = await page.getByTestId('reports.text').textContent();
  expect(report).toContain('BUG: KASAN: slab-use-after-free');
  expect(report).toMatch(/Freed by task mount\/\d+:\n fs_umount\(\)/);
  // The wasm build names the last kernel line the reading task reported (wasm/runtime/kasan.c).
  const m = /after (mm\/[\w.]+):(\d+) (\w+)\(\)/.exec(report ?? '');
  expect(m).not.toBeNull();
  const [, file, line, func] = m!;
  const text = Lab.kernelLine('break-no-wait', file, Number(line));
  expect(text.trim().length).toBeGreaterThan(0);
  // That line is inside the function the report names, on the break's branch.
  const before = Lab.kernelLines('break-no-wait', file, Number(line));
  expect(before.reverse().find((s) => /^\S.*\b\w+\(/.test(s))).toMatch(new RegExp(`\\b${func}\\(`));
});
