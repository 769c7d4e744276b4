// SPDX-License-Identifier: GPL-2.0-only
import { expect, test } from '@playwright/test';
import { Lab } from './lab';

const nextDecision = (lab: Lab) =>
  lab.page.evaluate(() => window.__lab!.nextDecision());

test('a person can make another CPU take the next step, and the link keeps it', async ({ page, context }) => {
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-lifetime&seed=1&step=60');
  const next = await nextDecision(lab);
  expect(next).not.toBeNull();
  const other = next!.runnable.find((c) => c !== next!.cpu)!;
  await page.getByTestId(`sched.cpu.${other}`).click();

  // The run is replayed with that choice; we stand at the step it made.
  await expect(page).toHaveURL(/sched=/);
  await expect.poll(() => lab.currentStep()).toBe(next!.event);
  const ev = await page.evaluate(() => window.__lab!.event()!);
  expect(ev.cpu).toBe(other);
  await expect(page.getByTestId('sched.panel')).toContainText('follow a schedule from the URL');

  // The same link reproduces the same state in a new page.
  const again = new Lab(await context.newPage());
  await again.open(page.url());
  expect(await again.currentStep()).toBe(next!.event);
  expect(await again.narration()).toBe(await lab.narration());

  // And the policy can take over again.
  await page.getByTestId('sched.clear').click();
  await expect(page).not.toHaveURL(/sched=/);
});

test('the scheduling policy can be switched and is kept in the link', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-lifetime&seed=1&step=10');
  await page.getByTestId('scene.policy').selectOption('rr');
  await expect(page).toHaveURL(/policy=rr/);
  await expect(page.getByTestId('run.facts')).toContainText('rr policy');
  expect(await lab.currentStep()).toBe(0);
});

test('the memory model can be switched, is named in the run\'s facts and kept in the link', async ({ page, context }) => {
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-lifetime&seed=1&step=10');
  await expect(page.getByTestId('run.facts')).toContainText('memory model sc');
  await expect(page).not.toHaveURL(/memory=/);
  await page.getByTestId('scene.memory').selectOption('relaxed');
  await expect(page).toHaveURL(/memory=relaxed/);
  await expect(page.getByTestId('run.facts')).toContainText('memory model relaxed');
  expect(await lab.currentStep()).toBe(0);
  // The same link opens the same model in a new page.
  const again = new Lab(await context.newPage());
  await again.open(page.url());
  await expect(again.page.getByTestId('scene.memory')).toHaveValue('relaxed');
  await expect(again.page.getByTestId('run.facts')).toContainText('memory model relaxed');
});

test('the planted bugs show kernel-style reports naming their lines', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=planted-bugs&seed=1&step=0');
  const reports = page.getByTestId('reports');
  await expect(reports).toContainText('3 reports in this run');
  await reports.getByRole('button', { name: /possible circular locking dependency/ }).click();
  await expect(page.getByTestId('reports.text')).toContainText('WARNING: possible circular locking dependency detected');
  await expect(page.getByTestId('reports.text')).toContainText('(lock_a), at: wasm/scenarios/planted_bugs.c:');
  await reports.getByRole('button', { name: /KASAN/ }).click();
  await expect(page.getByTestId('reports.text')).toContainText('BUG: KASAN: slab-use-after-free');
  await expect(page.getByTestId('reports.text')).toContainText('Freed by task freer/3');
  // The report's event is the current step, and its line is in the code pane.
  const ev = await page.evaluate(() => window.__lab!.event()!);
  expect(ev.kindName).toBe('REPORT');
});

test('the same scene runs on another kernel, named in the link', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=planted-bugs&seed=1&step=0');
  await page.getByTestId('scene.variant').selectOption('v6.1');
  await expect(page).toHaveURL(/variant=v6\.1/);
  await expect(page.getByTestId('run.facts')).toContainText('Kernel v6.1');
  await expect(page.getByTestId('reports')).toContainText('3 reports in this run');
  // 6.1's KASAN called it a use-after-free; 6.12's says slab-use-after-free
  await page.getByTestId('reports').getByRole('button', { name: /KASAN/ }).click();
  await expect(page.getByTestId('reports.text')).toContainText('BUG: KASAN: use-after-free');
});
