// SPDX-License-Identifier: GPL-2.0-only
// The memcg-bitmap scene by hand: each action reruns the real code with
// the program in the URL and lands on what it did, at the kernel's line.
import { expect, test, type Page } from '@playwright/test';
import { kernelWithTrait, Lab, labFields, modelState } from './lab';

interface State {
  bits: Record<number, number[]>;
  memcgs: { obj: number; name: string }[];
  shrinkers: { obj: number; id: number }[];
  races: { lost: boolean }[];
  expanded: number;
  oldInfos: { freed: boolean }[];
}

const state = (page: Page) => modelState<State>(page);
const prog = (page: Page) => labFields(page);

/** Does what a person does: pick a memcg and a mount, press an action, wait for the rerun. */
async function act(page: Page, action: string, memcg?: number, mount?: number) {
  const before = (await prog(page)).prog;
  if (memcg !== undefined) await page.getByTestId('action.memcg').selectOption(String(memcg));
  if (mount !== undefined) await page.getByTestId('action.mount').selectOption(String(mount));
  await page.getByTestId(`action.${action}`).click();
  await expect.poll(async () => {
    const l = await prog(page);
    return l.ready && l.prog !== before;
  }).toBe(true);
  await expect(page.getByTestId('scene.ready')).toBeVisible();
}

const cell = (page: Page, memcg: string, bit: number) => page.getByTestId(`bit.${memcg}.${bit}`);

test('adding an object sets the bit at set_shrinker_bit(), and the view lands there', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=memcg-bitmap&prog=p&step=99999');
  await expect(cell(page, '/ct1/0', 2)).toHaveAttribute('data-bit', '0');
  await act(page, 'add', 2, 0); // /ct1/0 on ct1/mnt0: shrinker id 2
  await expect(page).toHaveURL(/prog=p%2Ca2\.0/);
  const site = await l.site();
  expect(site?.func).toBe('set_shrinker_bit');
  expect(Lab.kernelLine('v6.12', site!.file, site!.line)).toMatch(/set_bit\(/);
  await expect(l.highlightedLine()).toContainText('set_bit(');
  await expect(cell(page, '/ct1/0', 2)).toHaveAttribute('data-bit', '1');
  await expect(cell(page, '/ct1/0', 2)).toHaveAttribute('data-objects', '1');
  await expect(page.getByTestId('bitmap.last-flip')).toContainText('set by set_shrinker_bit()');
});

test('draining leaves the bit set; reclaim finds SHRINK_EMPTY and clears it at the real line', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=memcg-bitmap&prog=a0.0&step=0');
  await act(page, 'drain', 0);
  await page.keyboard.press('End');
  await expect(cell(page, '/ct0/0', 0)).toHaveAttribute('data-bit', '1');
  await expect(cell(page, '/ct0/0', 0)).toHaveAttribute('data-objects', '0');
  await act(page, 'reclaim', 0);
  const site = await l.site();
  expect(site?.func).toBe('shrink_slab_memcg');
  expect(Lab.kernelLine('v6.12', site!.file, site!.line)).toMatch(/clear_bit\(/);
  await expect(cell(page, '/ct0/0', 0)).toHaveAttribute('data-bit', '0');
  // Then the recheck: the barrier and one more call of the shrinker.
  await page.keyboard.press('End');
  await expect(page.getByTestId('bitmap.count-calls')).toHaveText('2');
});

test('the race: the recheck keeps the bit on v6.12; without it the same schedule loses it', async ({ page }) => {
  const l = new Lab(page);
  await l.open(`?scene=memcg-bitmap&variant=${kernelWithTrait('memcg-bitmap', 'no-recheck').name}&policy=random&seed=88&step=99999`);
  await expect(page.getByTestId('bitmap.race')).toContainText('LOST the bit');
  await expect(cell(page, '/ct1/1', 3)).toHaveAttribute('data-bit', '0');
  await expect(cell(page, '/ct1/1', 3)).toHaveAttribute('data-objects', '1');
  expect((await state(page)).races.at(-1)?.lost).toBe(true);

  await page.getByTestId('scene.variant').selectOption('v6.12');
  await expect.poll(async () => (await labFields(page)).variant).toBe('v6.12');
  await page.keyboard.press('End');
  await expect(page.getByTestId('bitmap.race')).toContainText('kept the bit');
  await expect(cell(page, '/ct1/1', 3)).toHaveAttribute('data-bit', '1');
});

test('racing by hand adds the race to the program and reports its outcome', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=memcg-bitmap&prog=p&step=0');
  await act(page, 'race', 1, 0);
  await page.keyboard.press('End');
  await expect(page.getByTestId('bitmap.race')).toContainText('kept the bit');
  await expect(page.getByTestId('bitmap.program')).toContainText('race: reclaim /ct0/1 against an add on ct0/mnt0');
});

test('racing an add against an expansion by hand: the view stands at its verdict, every info replaced', async ({ page }, info) => {
  const l = new Lab(page);
  await l.open('?scene=memcg-bitmap&prog=p&step=0');
  const before = await state(page);
  await act(page, 'expand', 3, 1);
  await expect(page.getByTestId('bitmap.program')).toContainText('race: an add to /ct1/1 on ct1/mnt1 against a registration that grows every shrinker_info');
  // Without End: the view goes to the race's return, its verdict.
  await expect(page.getByTestId('bitmap.race')).toContainText('kept the bit');
  expect((await page.evaluate(() => window.__lab!.event()!)).kindName).toBe('RETURN');
  await expect(cell(page, '/ct1/1', 3)).toHaveAttribute('data-bit', '1');
  await expect(cell(page, '/ct1/1', 3)).toHaveAttribute('data-objects', '1');
  expect((await state(page)).expanded).toBeGreaterThan(before.expanded);
  await page.getByTestId('action.expand').scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('memcg-bitmap-expand-by-hand.png') });
});

test('on the 32-bit machine, registering past a unit grows every shrinker_info and frees the old ones after a grace period', async ({ page }) => {
  const l = new Lab(page);
  // The 32-bit machine (bits=32): its units of 32 shrinkers are outgrown by 32 more.
  await l.open('?scene=memcg-bitmap&bits=32&prog=a0.0&step=99999');
  const before = await state(page);
  await page.getByTestId('action.grow-n').selectOption('32');
  await act(page, 'grow');
  await page.keyboard.press('End');
  const after = await state(page);
  expect(after.shrinkers.filter((s) => s.id >= 0)).toHaveLength(4 + 32);
  expect(after.expanded).toBeGreaterThan(before.expanded);
  expect(after.oldInfos.length).toBeGreaterThan(before.oldInfos.length);
  expect(after.oldInfos.every((o) => o.freed)).toBe(true);
  await expect(page.getByTestId('bitmap.expanded')).toContainText('freed after one');
  // 36 shrinkers on 32-bit longs: bits 32 and up live in a second unit.
  await expect(page.getByTestId('bitmap.unit.32')).toBeAttached();
  // and the page says the word size it simulates, next to the matrix
  await expect(page.getByTestId('bitmap.word-size')).toContainText('every 32 shrinkers');
  await expect(page.getByTestId('bitmap.word-size')).toContainText('32-bit');
  // The bit set before growing is still there: the units are carried over.
  await expect(cell(page, '/ct0/0', 0)).toHaveAttribute('data-bit', '1');
  expect(new URL(page.url()).searchParams.get('bits')).toBe('32'); // kept in the permalink
});

test('on the 64-bit machine, the default, a unit holds 64 shrinkers, and the page says so', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=memcg-bitmap&prog=a0.0&step=99999');
  await page.getByTestId('action.grow-n').selectOption('32');
  await act(page, 'grow');
  await page.keyboard.press('End');
  // 36 shrinkers: one unit
  await expect(page.getByTestId('bitmap.word-size')).toContainText('holds the bits of 64 shrinkers');
  await expect(page.getByTestId('bitmap.word-size')).toContainText('64-bit');
  await expect(page.locator('[data-testid^="bitmap.unit."]')).toHaveCount(0);
  // 76: bits 64 and up live in a second unit.
  await page.getByTestId('action.grow-n').selectOption('40');
  await act(page, 'grow');
  await page.keyboard.press('End');
  await expect(page.getByTestId('bitmap.unit.64')).toBeAttached();
  await expect(page.getByTestId('bitmap.word-size')).toContainText('every 64 shrinkers');
  await expect(page.getByTestId('run.facts')).toContainText('on the 64-bit machine');
  expect(new URL(page.url()).searchParams.has('bits')).toBe(false); // the default is not written in the permalink
  await expect(cell(page, '/ct0/0', 0)).toHaveAttribute('data-bit', '1');
});

test('a bad program in the URL is reported, and the scene runs its default', async ({ page }) => {
  await new Lab(page).open('?scene=memcg-bitmap&prog=a0');
  await expect(page.locator('[data-testid="url.notice"][data-param="prog"]')).toContainText('a takes 2 numbers');
  expect(await page.evaluate(() => window.__lab!.prog)).toBe('');
});

test('scale: the seed machine on both kernels, in a worker, without freezing the page', async ({ page }) => {
  test.setTimeout(300_000);
  const l = new Lab(page);
  await l.open('?scene=memcg-bitmap&step=0');
  // While the panel is shown, a worker per kernel starts and compiles its module, before any click.
  const kernels = String(await page.evaluate(() => Math.min(2, navigator.hardwareConcurrency || 1)));
  await expect(page.getByTestId('scale.run')).toHaveAttribute('data-warmed', kernels);
  await page.getByTestId('scale.run').click();
  await expect(page.getByTestId('scale.progress')).toBeVisible();
  // The page still answers while the worker runs.
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => l.currentStep()).toBe(1);
  await expect(page.getByTestId('scale.v6.12.calls')).toHaveText('4,000', { timeout: 120_000 });
  await expect(page.getByTestId('scale.no-shrinker-bitmap.calls')).toHaveText('4,002,000', { timeout: 240_000 });
  await expect(page.getByTestId('scale.ratio')).toContainText('1001×');
  await expect(page.getByTestId('scale.bits')).toBeVisible();
  await page.getByTestId('scale').screenshot({ path: 'test-results/memcg-bitmap-scale.png' });
  // A fresh pool is warmed for the next run.
  await expect(page.getByTestId('scale.run')).toHaveAttribute('data-warmed', kernels);
});

test('scale: a long run can be cancelled', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=memcg-bitmap&step=0');
  await page.getByTestId('scale.preset.drop-caches').check();
  await page.getByTestId('scale.run').click();
  await expect(page.getByTestId('scale.progress')).toContainText('setting up containers');
  await page.getByTestId('scale.cancel').click();
  await expect(page.getByTestId('scale.error')).toHaveText('Cancelled.');
  await expect(page.getByTestId('scale.run')).toBeEnabled();
});
