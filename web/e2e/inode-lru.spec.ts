// SPDX-License-Identifier: GPL-2.0-only
// The inode-lru scene: inodes with page cache kept off the inode LRU on
// v6.12, rotated on it on inode-lru-before, each event at its real line of the
// branch's fs/inode.c; and the seed's table in a worker that can be
// cancelled.
import { expect, test, type Page } from '@playwright/test';
import { Lab, modelState } from './lab';

interface Row {
  name: string;
  pages: number;
  onLru: boolean;
  workingset: boolean;
}
interface State {
  inodes: Record<number, Row>;
  order: number[];
  rotations: number;
  putOn: number;
  firsts: Record<string, number>;
}

const state = (page: Page) => modelState<State>(page);

test('inode-lru-before: the shrinker rotates a workingset inode with page cache at inode_lru_isolate()’s LRU_ROTATE', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=inode-lru&variant=inode-before&step=99999');
  const end = await state(page);
  expect(end.rotations).toBeGreaterThan(0);
  await l.goTo(end.firsts.rotated);
  const site = await l.site();
  expect(site?.func).toBe('inode_lru_isolate');
  expect(site?.file).toBe('fs/inode.c');
  expect(Lab.kernelLine('inode-lru-before', site!.file, site!.line)).toMatch(/return LRU_ROTATE;/);
  await expect(l.highlightedLine()).toContainText('return LRU_ROTATE;');
  await expect(page.getByTestId('inode.last')).toContainText('rotated to the tail');
  // Every workingset inode sits on the LRU with its pages.
  const s = await state(page);
  const ws = Object.values(s.inodes).filter((r) => r.workingset);
  expect(ws.length).toBe(12);
  for (const r of ws) {
    expect(r.onLru).toBe(true);
    expect(r.pages).toBeGreaterThan(0);
  }
  await expect(page.getByTestId('page.ws-0')).toHaveAttribute('data-on-lru', '1');
  await expect(page.getByTestId('inode.rotations')).not.toHaveText('0');
});

test('v6.12: inodes with page cache stay off; the last page to leave puts one on at __inode_add_lru()', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=inode-lru&variant=inode&step=99999');
  const end = await state(page);
  expect(end.rotations).toBe(0);
  expect(end.firsts.rotated).toBeUndefined();
  await l.goTo(end.firsts['put-on']);
  const site = await l.site();
  expect(site?.func).toBe('__inode_add_lru');
  expect(Lab.kernelLine('v6.12', site!.file, site!.line)).toMatch(/list_lru_add_obj\(/);
  await expect(l.highlightedLine()).toContainText('list_lru_add_obj(');
  const s = await state(page);
  for (const o of s.order) expect(s.inodes[o].pages).toBe(0);
  for (const r of Object.values(s.inodes).filter((x) => x.workingset)) expect(r.onLru).toBe(false);
  await expect(page.getByTestId('inode.lru.busy')).toHaveText('0');
  await expect(page.getByTestId('page.ws-0')).toHaveAttribute('data-on-lru', '0');
  await expect(page.getByTestId('page.lru.off')).toContainText('ws 0');
});

test('v6.12: an inode reclaim emptied waits off the LRU for its shadow entries; mm-shadow frees them at workingset.c', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=inode-lru&variant=inode&step=0');
  await expect(page.getByTestId('page.lru.shadowed')).toContainText('none');
  await page.getByTestId('inode.next.shadow-freed').click();
  await expect.poll(async () => (await l.site())?.func).toBe('shadow_lru_isolate');
  const site = await l.site();
  expect(site?.file).toBe('mm/workingset.c');
  expect(Lab.kernelLine('v6.12', site!.file, site!.line)).toMatch(/if \(mapping_shrinkable\(mapping\)\)/);
  await expect(l.highlightedLine()).toContainText('mapping_shrinkable(mapping)');
  // Just before it, some streaming inode had no pages, only shadows, and was off the LRU: the page names it.
  await l.goTo((await l.currentStep()) - 1);
  const waiting = Object.values((await state(page)).inodes).filter((r) => !r.workingset && r.pages === 0 && !r.onLru && (r as Row & { shadows: number }).shadows > 0);
  expect(waiting.length).toBeGreaterThan(0);
  await expect(page.getByTestId('page.lru.shadowed')).toContainText(waiting[0].name);
  // Its XArray holds shadow entries and no folio, and it is marked off the LRU; mm-shadow's count stands beside the super block's.
  const row = page.getByTestId(`xa.${waiting[0].name.replace(' ', '-')}`);
  await expect(row).toHaveAttribute('data-shadows', /[1-9]/);
  await expect(row).toHaveAttribute('data-pages', '0');
  await expect(row).toContainText('off LRU');
  await expect(row.locator('.xa-cell.shadow').first()).toBeVisible();
  await expect(page.getByTestId('page.shrinkers')).toContainText('mm-shadow');
});

test('the jump buttons land on the next rotation and the next put-back, at their lines', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=inode-lru&variant=inode-before&step=0');
  await page.getByTestId('inode.next.rotated').click();
  await expect.poll(async () => (await l.site())?.func).toBe('inode_lru_isolate');
  const site = await l.site();
  expect(Lab.kernelLine('inode-lru-before', site!.file, site!.line)).toMatch(/return LRU_ROTATE;/);
  await l.open('?scene=inode-lru&variant=inode&step=0');
  await expect(page.getByTestId('inode.next.rotated')).toBeDisabled();
  await page.getByTestId('inode.next.put-on').click();
  await expect.poll(async () => (await l.site())?.func).toBe('__inode_add_lru');
  await expect(page.getByTestId('inode.last')).toContainText('(0 pages) put on the inode LRU');
});

test('the counter-proposal returns LRU_ROTATE_NODEFER at its line of inode-lru-rotate', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=inode-lru&variant=inode-rotate&step=99999');
  const end = await state(page);
  await l.goTo(end.firsts.rotated);
  const site = await l.site();
  expect(Lab.kernelLine('inode-lru-rotate', site!.file, site!.line)).toMatch(/return LRU_ROTATE_NODEFER;/);
  await expect(page.getByTestId('inode.last')).toContainText('LRU_ROTATE_NODEFER');
});

test('N and P can be changed: the run follows, and the link keeps them', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=inode-lru&variant=inode-before&step=0');
  await page.getByTestId('inode.size.inodes').fill('20');
  await page.getByTestId('inode.size.pages').fill('2');
  await page.getByTestId('inode.sizes.run').click();
  await expect(page).toHaveURL(/prog=n20\.p2\.f6/);
  await expect.poll(async () => Object.values((await state(page)).inodes).filter((r) => r.workingset).length).toBe(20);
  const s = await state(page);
  for (const r of Object.values(s.inodes).filter((x) => x.workingset)) {
    expect(r.pages).toBe(2);
    expect(r.onLru).toBe(true); // drop-behind starts here, every workingset inode already on the LRU
  }
});

test('the seed’s table runs in workers of its own, shows progress, and can be cancelled', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=inode-lru&variant=inode&step=0');
  await page.getByTestId('inode.figures.run').click();
  await expect(page.getByTestId('inode.figures.progress')).toBeVisible();
  // The first row's three kernels come back; then cancel the rest.
  await expect(page.getByTestId('inode.figures.1000.inode-rotate')).toHaveAttribute('data-share', /\d/, { timeout: 120_000 });
  await page.getByTestId('inode.figures.cancel').click();
  await expect(page.getByTestId('inode.figures.error')).toHaveText('Cancelled.');
  await expect(page.getByTestId('inode.figures.run')).toBeVisible();
  const share = Number(await page.getByTestId('inode.figures.1000.inode').getAttribute('data-share'));
  expect(share).toBeGreaterThan(0);
  expect(share).toBeLessThan(1);
});

test('the seed’s table, rows 100,000 x 32 and 1,000,000 x 3: before climbs, v6.12 stays flat', async ({ page }) => {
  test.setTimeout(600_000);
  const l = new Lab(page);
  await l.open('?scene=inode-lru&variant=inode&step=0');
  await page.getByTestId('inode.figures.run').click();
  const cell = (n: number, k: string) => page.getByTestId(`inode.figures.${n}.${k}`);
  // The rows' runs go side by side in workers, finishing in any order: every cell read below, filled, before Cancel.
  for (const [n, k] of [[100_000, 'inode-before'], [100_000, 'inode'], [1_000_000, 'inode-before'], [1_000_000, 'inode-rotate'], [1_000_000, 'inode']] as const)
    await expect(cell(n, k)).toHaveAttribute('data-share', /\d/, { timeout: 540_000 });
  // The larger rows are not needed: stopped if still running (they may have ended meanwhile).
  await page.getByTestId('inode.figures.cancel').click({ timeout: 2_000 }).catch(() => {});
  const v = async (n: number, k: string) => Number(await cell(n, k).getAttribute('data-share'));
  expect(await v(100_000, 'inode-before')).toBeLessThan(2);
  expect(await v(1_000_000, 'inode-before')).toBeGreaterThan(25);
  expect(await v(1_000_000, 'inode-rotate')).toBeGreaterThan(25);
  expect(await v(1_000_000, 'inode')).toBeLessThan(1);
  expect(Math.abs((await v(1_000_000, 'inode')) - (await v(100_000, 'inode')))).toBeLessThan(0.5);
  await page.screenshot({ path: 'test-results/inode-lru-figures.png', fullPage: true });
});
