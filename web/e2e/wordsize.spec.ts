// SPDX-License-Identifier: GPL-2.0-only
// The page's 64-bit machine (make page64; bits=64): every
// scene on every kernel it runs on
// (the scene registry, through the test handle) gives in Chromium the
// events native64 gives for the same command line (the page's own, as its
// run's end prints it: build/native64/<variant>/labrun ...), compared as the
// worker packs them (engine/log.ts), and the same sites and names. At
// bits=32, one scene against native's, as make test-determinism checks
// every scenario under Node. Tagged @wasm64: make test-wasm64 runs them,
// after building the 64-bit page modules and native64. Untagged, in make
// test-e2e: the bare URL on the default 64-bit machine and 32 picked by hand.
import { expect, test, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packRecords } from '../src/engine/log';
import { exploreNative, exploreRace, Lab, labFields, type ExploreSummary } from './lab';

interface Native {
  digest: string;
  sites: unknown;
  names: unknown;
  bits: number;
}

/** The run of a command line natively: its packed events' digest and its meta. */
function native(command: string): Native {
  const [bin, ...args] = command.split(' ');
  const dir = mkdtempSync(join(tmpdir(), 'labrun-'));
  try {
    const r = spawnSync(bin, [...args, '--dump', dir], { env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' }, encoding: 'utf8' });
    if (r.status !== 0 && r.status !== 1) throw new Error(`${command}: exit ${r.status}: ${r.stderr}`);
    const b = readFileSync(join(dir, 'events.bin'));
    const packed = packRecords(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Native;
    return { digest: createHash('sha256').update(new Uint8Array(packed.columns)).digest('hex'), sites: meta.sites, names: meta.names, bits: meta.bits };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function compare(page: Page, where: string, bits: number) {
  const got = await page.evaluate(async () => {
    const h = window.__lab!;
    return { command: h.command(), digest: await h.columnsDigest(), meta: h.meta() };
  });
  expect(got.meta!.bits, where).toBe(bits);
  expect(got.command, where).toMatch(new RegExp(`^build/native${bits === 64 ? '64' : ''}/`));
  const want = native(got.command!);
  expect(want.bits, `${where}: ${got.command}`).toBe(bits);
  expect(got.digest, `${where}: the page's events against ${got.command}`).toBe(want.digest);
  expect(got.meta!.sites, where).toEqual(want.sites);
  expect(got.meta!.names, where).toEqual(want.names);
}

test('every scene on every kernel: the page at 64 bits gives native64’s events @wasm64', async ({ page }) => {
  test.setTimeout(600_000);
  const l = new Lab(page);
  await l.open('?step=0');
  const scenes = (await labFields(page)).sceneDefs;
  let runs = 0;
  for (const scene of scenes) {
    for (const variant of scene.variants) {
      await l.open(`?scene=${scene.id}&variant=${variant}&bits=64&step=0`);
      await expect(page.getByTestId('run.facts')).toContainText('on the 64-bit machine');
      await compare(page, `${scene.id} on ${variant}`, 64);
      runs++;
    }
  }
  expect(runs).toBeGreaterThan(scenes.length - 1);
});

test('the bare URL runs the 64-bit machine; 32-bit picked by keyboard reloads at bits=32, which the permalink keeps', async ({ page }, info) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-lifetime');
  await expect(page.getByTestId('scene.bits')).toHaveValue('64');
  await expect(page.getByTestId('run.facts')).toContainText('on the 64-bit machine');
  expect(await l.bits()).toBe(64);
  expect(new URL(page.url()).searchParams.has('bits')).toBe(false);
  await page.screenshot({ path: info.outputPath('default-64.png') });
  const control = page.getByTestId('scene.bits');
  await control.focus();
  await page.keyboard.press('ArrowDown'); // 32-bit is the option below
  await expect.poll(() => new URL(page.url()).searchParams.get('bits')).toBe('32');
  await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('run.facts')).toContainText('on the 32-bit machine', { timeout: 30_000 });
  await expect(control).toHaveValue('32');
  expect(await l.bits()).toBe(32);
  // Stepping writes the step into the link, which keeps bits=32; the scene runs at 32 bits.
  await page.keyboard.press('Escape');
  await page.keyboard.press('End');
  await expect.poll(() => new URL(page.url()).searchParams.get('step')).not.toBeNull();
  expect(new URL(page.url()).searchParams.get('bits')).toBe('32');
  await page.screenshot({ path: info.outputPath('picked-32.png') });
  await l.open(new URL(page.url()).search);
  expect(await l.bits()).toBe(32);
});

test('bits=32: the 32-bit machine, native’s events; the control switches it to 64, by keyboard @wasm64', async ({ page }) => {
  const l = new Lab(page);
  await l.open('?scene=shrinker-lifetime&variant=break-no-wait&bits=32&step=0');
  await expect(page.getByTestId('run.facts')).toContainText('on the 32-bit machine');
  await compare(page, 'shrinker-lifetime on break-no-wait at 32 bits', 32);
  const control = page.getByTestId('scene.bits');
  await expect(control).toHaveValue('32');
  await control.focus();
  await page.keyboard.press('ArrowUp'); // 64-bit is the option above
  await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  // 64 bits is the default: the link leaves bits= out.
  await expect.poll(() => new URL(page.url()).searchParams.has('bits')).toBe(false);
  await expect(page.getByTestId('run.facts')).toContainText('on the 64-bit machine', { timeout: 30_000 });
  await expect(page.getByTestId('scene.bits')).toHaveValue('64');
});

test('the Explore panel at 64 bits finds what labrun --explore finds on native64: shrinker-churn on break-no-wait, bound 1 @wasm64', async ({ page }) => {
  test.setTimeout(300_000);
  const race = exploreRace('shrinker-churn');
  // Both widths natively, while the page searches.
  const last = (p: Promise<ExploreSummary[]>) => p.then((lines) => lines[lines.length - 1]);
  const want64 = last(exploreNative(64, 'break-no-wait', race.scenario, race.args, 1));
  const want32 = last(exploreNative(32, 'break-no-wait', race.scenario, race.args, 1));
  const l = new Lab(page);
  await l.open('?scene=shrinker-churn&variant=break-no-wait&seed=1&bits=64');
  await expect(page.getByTestId('run.facts')).toContainText('on the 64-bit machine');
  const panel = page.getByTestId('explore');
  await panel.getByTestId('explore.bound').selectOption('1');
  await panel.getByTestId('explore.run').click();
  await expect(panel.getByTestId('explore.verdict')).toBeVisible({ timeout: 250_000 });
  const [n64, n32] = await Promise.all([want64, want32]);
  // The 64-bit kernel has more places to switch than the 32-bit one, so more
  // executions; the failing ones and the shortest of them are the same.
  await expect(panel.getByTestId('explore.progress')).toContainText(
    `Explored bound 1: ${n64.executions_total} executions, ${n64.end_states} distinct end states, ${n64.failing_executions} failing`);
  await expect(panel.getByTestId('explore.verdict')).toHaveText(
    new RegExp(`Fails: ${n64.failing_executions} of ${n64.executions_total} executions with at most 1 preemption`));
  expect(n64.failing_executions).toBe(n32.failing_executions);
  expect(n64.shortest!.schedule).toBe(n32.shortest!.schedule);
  const links = panel.getByTestId('explore.counterexample');
  await expect(links.first()).toHaveText(new RegExp(`^${n64.shortest!.preemptions} preemptions?, ${n64.shortest!.decisions} decisions: KASAN: slab-use-after-free`));
  const q = new URLSearchParams((await links.first().getAttribute('href'))!.slice(1));
  expect(q.get('sched')).toBe(n64.shortest!.schedule);
  // The link opens the same machine: 64 bits, the default, left out of it.
  expect(q.has('bits')).toBe(false);
});
