// SPDX-License-Identifier: GPL-2.0-only
// Never blank, never stale: at every step the code pane shows a kernel
// line (this event's, or, marked as such, the last its CPU ran or where the
// run enters the kernel); the title, the series card and "Code shown" follow
// the running and the compared kernel; panels that do not apply are absent.
import { expect, test, type Page } from '@playwright/test';
import { kernelWithTrait, Lab, labFields } from './lab';

const codeShown = (page: Page) => page.evaluate(() => window.__lab!.codeShown());

async function sceneDefs(page: Page): Promise<{ id: string; variants: string[] }[]> {
  await new Lab(page).open('?step=0');
  return labFields(page).then((f) => f.sceneDefs);
}

/** The code pane at the current step: a file, a lit line that is the line named, and the right caption. */
async function expectCodeShown(page: Page, l: Lab, where: string) {
  const step = await l.currentStep();
  const s = await codeShown(page);
  expect(s, `${where} step ${step}`).not.toBeNull();
  const pane = page.getByTestId('code.pane');
  await expect(pane, `${where} step ${step}`).toHaveAttribute('data-shown', s!.how);
  await expect(page.getByTestId('code.file')).toContainText(`${s!.file}:${s!.line}`);
  const line = l.highlightedLine();
  await expect(line, `${where} step ${step}`).toBeVisible();
  await expect(line).toHaveAttribute('data-line', String(s!.line));
  expect((await line.textContent())!.trim().length, `${where} step ${step}: the lit line has text`).toBeGreaterThan(String(s!.line).length);
  if (s!.how === 'event') expect(s!.at).toBe(step);
  else {
    expect(s!.at).toBeLessThanOrEqual(s!.how === 'cpu' ? step : Infinity);
    await expect(pane.locator('.code-prov')).toContainText(s!.how === 'cpu' ? `the last line CPU` : 'where the run enters the kernel');
    await expect(pane.locator('.code-prov')).toContainText(`event ${s!.at}`);
  }
}

test('no blank code pane at any sampled step of any scene’s default run, the first and the last included', async ({ page }) => {
  test.setTimeout(300_000);
  const l = new Lab(page);
  for (const scene of await sceneDefs(page)) {
    await l.open(`?scene=${scene.id}&step=0`);
    const last = await labFields(page).then((f) => f.length - 1);
    const steps = new Set([0, 1, last - 1, last, ...Array.from({ length: 9 }, (_, k) => Math.round(((k + 1) * last) / 10))]);
    for (const step of [...steps].sort((a, b) => a - b)) {
      await l.goTo(step);
      await expectCodeShown(page, l, scene.id);
    }
    // Step 0 is a task starting: no line of its own, yet the pane shows one.
    await l.goTo(0);
    expect((await codeShown(page))!.how).not.toBe('event');
  }
});

test('the title, the series card and "Code shown" follow the running kernel', async ({ page }) => {
  const l = new Lab(page);
  const noRecheck = kernelWithTrait('memcg-bitmap', 'no-recheck');
  for (const [scene, variant, branch] of [
    ['shrinker-lifetime', 'break-no-wait', 'break-no-wait'],
    ['memcg-bitmap', noRecheck.name, noRecheck.branch],
    ['inode-lru', 'inode-before', 'inode-lru-before'],
    ['inode-lru', 'inode', 'v6.12'],
  ]) {
    await l.open(`?scene=${scene}&variant=${variant}&step=10`);
    await expect(page.getByTestId('scene.kernel')).toHaveText(`kernel ${variant}`);
    await expect(page.getByTestId('series.code')).toContainText(`branch ${branch} of kernel-tree/linux`);
    if (branch !== 'v6.12') await expect(page.getByTestId('series.code')).toContainText('with a project patch');
  }
  // Switching the kernel in the page: the header follows.
  await l.open('?scene=shrinker-lifetime&step=10');
  await expect(page.getByTestId('series.code')).toContainText('upstream Linux, branch v6.12');
  await page.getByTestId('scene.variant').selectOption('break-no-tryget');
  await expect(page.getByTestId('scene.kernel')).toHaveText('kernel break-no-tryget');
  await expect(page.getByTestId('series.code')).toContainText('branch break-no-tryget');
});

test('a compared kernel is named in the title and gets its own series card', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-churn&variant=srcu&compare=v6.12&step=100');
  await expect(page.getByTestId('compare')).toBeVisible();
  await expect(page.getByTestId('scene.kernel')).toHaveText('kernel srcu, beside it v6.12');
  await expect(page.getByTestId('series.card').getByTestId('series.code')).toContainText('branch srcu-shrinkers');
  await expect(page.getByTestId('series.card.beside')).toContainText('Beside it (v6.12)');
  await expect(page.getByTestId('series.card.beside')).toContainText('upstream Linux, branch v6.12');
});

test('panels that do not apply are not shown', async ({ page }) => {
  const l = new Lab(page);
  // Planted bugs are project code: no kernel diff beside it.
  await l.open('?scene=planted-bugs&step=10');
  await expect(page.getByTestId('code.pane')).toBeVisible();
  await expect(page.getByTestId('diff.panel')).toHaveCount(0);
  // The legend keys only what the timeline draws.
  await l.open('?scene=shrinker-lifetime&step=10');
  const legend = page.getByTestId('legend');
  await expect(legend).toContainText('RCU read-side section');
  await expect(legend).toContainText('grace period');
  await expect(legend).not.toContainText('gave the lock up');
  await expect(page.getByTestId('diff.panel')).toBeVisible();
  await l.open('?lesson=rwsem-bailout');
  await expect(page.getByTestId('legend')).toContainText('gave the lock up');
  // The folio LRU's real code takes rcu_read_lock() (folio_evictable(), mm/internal.h), so lru-batch draws read-side
  // sections, but nothing in its run waits for a grace period.
  await l.open('?scene=lru-batch&step=10');
  await expect(page.getByTestId('legend')).toContainText('RCU read-side section');
  await expect(page.getByTestId('legend')).not.toContainText('grace period');
  await expect(page.getByTestId('legend')).not.toContainText('gave the lock up');
});

test('End onto another file: no frame lights a line of the file shown before', async ({ page }) => {
  const l = new Lab(page);
  // A scene whose last event's line is in another file than its first's.
  let found: { scene: string; first: string; last: { tree: string; file: string; line: number } } | null = null;
  for (const scene of ['shrinker-lifetime', 'shrinker-churn', 'memcg-bitmap', 'lru-batch', 'inode-lru']) {
    await l.open(`?scene=${scene}&step=0`);
    const first = (await codeShown(page))!;
    const n = (await labFields(page)).length;
    const last = await page.evaluate((k) => { window.__lab!.goTo(k); return null; }, n - 1).then(async () => {
      await expect.poll(() => l.currentStep()).toBe(n - 1);
      return (await codeShown(page))!;
    });
    if (`${last.tree}:${last.file}` !== `${first.tree}:${first.file}`) {
      found = { scene, first: `${first.tree}/${first.file}`, last };
      break;
    }
  }
  expect(found, 'a scene whose End is in another file').not.toBeNull();
  const { scene, last } = found!;
  const text = (await (await page.request.get(`kernel/${last.tree}/${last.file}`)).text()).split('\n');
  // A fresh page, the last file slow to come (a slow network): each frame until it is in, and a moment after, recorded.
  await page.route(`**/kernel/${last.tree}/${last.file}`, async (route) => {
    await new Promise((r) => setTimeout(r, 500));
    await route.continue();
  });
  await l.open(`?scene=${scene}&step=0`);
  await page.evaluate(() => {
    const w = window as unknown as { frames_: { file: string; lit: string | null; line: string | null }[] };
    w.frames_ = [];
    const tick = () => {
      const lit = document.querySelector('[data-testid="code.line.current"]');
      w.frames_.push({ file: document.querySelector('[data-testid="code.file"]')?.textContent ?? '', line: lit?.getAttribute('data-line') ?? null, lit: lit?.querySelector('.src')?.textContent ?? null });
      if (w.frames_.length < 400) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.keyboard.press('End');
  await expect(l.highlightedLine()).toHaveAttribute('data-line', String(last.line), { timeout: 10_000 });
  await page.waitForTimeout(200);
  const frames = await page.evaluate(() => (window as unknown as { frames_: { file: string; lit: string | null; line: string | null }[] }).frames_);
  const after = frames.filter((f) => f.file.includes(`${last.file}:${last.line}`));
  expect(after.length, 'frames that show the last event').toBeGreaterThan(5);
  // Every frame that names the last file either lights nothing (its lines on their way) or lights the real line.
  for (const f of after) if (f.lit !== null) expect({ line: f.line, text: f.lit }).toEqual({ line: String(last.line), text: text[last.line - 1] || ' ' });
  expect(after.some((f) => f.lit === null), 'the file was on its way for some frames').toBe(true);
});
