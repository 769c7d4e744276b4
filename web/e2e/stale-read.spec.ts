// SPDX-License-Identifier: GPL-2.0-only
// What a CPU saw under a weak memory model: on break-no-mb-recheck (the
// recheck of shrink_slab_memcg() without its smp_mb__after_atomic()) under
// relaxed, the explorer's shortest failing schedule (labrun --explore, run
// natively here) opened in the page at a laptop's window; at its stale load
// the event panel and the code pane say what the load read and which newer
// store of the other CPU it had not yet seen, in words a person can read
// whole (not clipped), and the store is one click away.
import { expect, test, type Locator } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { exploreNative, Lab, nativeLabrun } from './lab';

const VARIANT = 'break-no-mb-recheck';

interface Race { id: string; scenario: string; args: string[]; prog: string; memory?: string; choiceBounds?: Record<string, number> }

/** The relaxed race of wasm/explore.json, with its memory model's flags as make explore gives them. */
function relaxedRace(): { race: Race; args: string[] } {
  const race = (JSON.parse(readFileSync('wasm/explore.json', 'utf8')) as { races: Race[] }).races.find((r) => r.id === 'clear-bit-recheck-relaxed')!;
  const args = [...race.args, '--memory', race.memory!, ...Object.entries(race.choiceBounds ?? {}).flatMap(([k, n]) => ['--choice-bound', `${k}=${n}`])];
  return { race, args };
}

/** A box holds its text: nothing cut at its right or bottom edge, and it lies inside the window's width. */
async function wholeInWindow(box: Locator) {
  await box.scrollIntoViewIfNeeded();
  const m = await box.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { sw: el.scrollWidth, cw: el.clientWidth, sh: el.scrollHeight, ch: el.clientHeight, left: r.left, right: r.right, top: r.top, bottom: r.bottom, vw: window.innerWidth, vh: window.innerHeight };
  });
  expect(m.sw).toBeLessThanOrEqual(m.cw + 1);
  expect(m.sh).toBeLessThanOrEqual(m.ch + 1);
  expect(m.left).toBeGreaterThanOrEqual(0);
  expect(m.right).toBeLessThanOrEqual(m.vw);
  expect(m.top).toBeGreaterThanOrEqual(0);
  expect(m.bottom).toBeLessThanOrEqual(m.vh);
}

test('under relaxed, the stale load of the recheck race says what CPU0 read and the store of CPU1 it had not seen', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const { race, args } = relaxedRace();
  const lab = new Lab(page);
  await lab.open(`?scene=memcg-bitmap&variant=${VARIANT}&prog=${race.prog}&memory=relaxed&step=0`);
  const bits = await lab.bits();
  const found = await exploreNative(bits, VARIANT, race.scenario, args, 1);
  const shortest = found[found.length - 1].shortest!;
  expect(shortest.replayed.kinds).toEqual(['warn']);

  // The native replay of that schedule: its first stale load, as labrun logs it.
  const r = spawnSync(nativeLabrun(bits, VARIANT), ['--scenario', race.scenario, ...args.filter((a, i) => a !== '--choice-bound' && args[i - 1] !== '--choice-bound'), '--schedule', shortest.schedule],
    { encoding: 'utf8', env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' }, maxBuffer: 1 << 26 });
  const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { i: number; cpu: number; kind: string; file: string; line: number; func: string; expr?: string; args: Record<string, number> });
  const native = events.find((e) => e.kind === 'MM_STALE')!;
  expect(native, 'the failing schedule has a stale load').toBeTruthy();

  await lab.open(`?scene=memcg-bitmap&variant=${VARIANT}&prog=${race.prog}&memory=relaxed&sched=${shortest.schedule}&step=${shortest.replayed.step}`);
  expect((await page.evaluate(() => window.__lab!.event()!)).kindName).toBe('WARN');
  const at = await page.evaluate(() => window.__lab!.find('MM_STALE', 0));
  expect(at).toBe(native.i);
  await lab.goTo(at);

  // The store it missed: CPU1's, placed by CPU1's last event before it (a plain store has no line of its own).
  const storeCpu = native.args.store_cpu;
  let after = native.args.store_event - 1;
  while (after >= 0 && events[after].cpu !== storeCpu) after--;
  const before = events[after];
  const storeWords = `CPU${storeCpu}'s store, made after its event ${after} at ${before.file}:${before.line} (${before.func}())`;

  const note = page.getByTestId('event.stale');
  await expect(note).toBeVisible();
  await expect(note).toContainText(`Stale read. CPU${native.cpu} read ${native.expr}`);
  await expect(note).toContainText(`at ${native.file}:${native.line} (${native.func}())`);
  await expect(note).toContainText(storeWords);
  await wholeInWindow(note);
  await expect(page.getByTestId('event.narration')).toContainText(`reads an older value of ${native.expr}`);

  // The code pane: the load's line lit, and in its header what the load had not yet seen.
  await expect(lab.highlightedLine()).toHaveAttribute('data-line', String(native.line));
  const head = page.getByTestId('code.also');
  await expect(head).toContainText(`Stale read`);
  await expect(head).toContainText(`CPU${native.cpu} has not yet seen ${storeWords}`);
  await wholeInWindow(head);
  await page.screenshot({ path: info.outputPath('stale-read.png') });
  await note.screenshot({ path: info.outputPath('stale-read-note.png') });

  // One click goes to the store's CPU's event just before the store.
  await page.getByTestId('event.stale.store').click();
  await expect.poll(() => lab.currentStep()).toBe(after);
  expect((await page.evaluate(() => window.__lab!.event()!)).cpu).toBe(storeCpu);
  await expect(page.getByTestId('event.stale')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('stale-read-store.png') });
});
