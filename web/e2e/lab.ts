// SPDX-License-Identifier: GPL-2.0-only
// Page object for the lab: opens a scene, steps it, and reads its state
// through the window.__lab test handle rather than through pixels alone.
import { expect, type Page } from '@playwright/test';
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { LabHandle } from '../src/app/testHandle';
import { labrunPath } from '../src/engine/labrunPath';

/** The handle's plain fields: its functions stay in the page. */
export type LabFields = { [K in keyof LabHandle as LabHandle[K] extends (...a: never[]) => unknown ? never : K]: LabHandle[K] };

/**
 * The handle's plain fields as they are now (window.__lab is typed by testHandle.ts), once the page has one: the
 * page's code (a chunk the first script imports) may still be loading when navigation's load event fires.
 */
export async function labFields(page: Page): Promise<LabFields> {
  await page.waitForFunction(() => window.__lab !== undefined);
  return page.evaluate(() => {
    const h = window.__lab;
    if (!h) throw new Error('no test handle yet');
    return Object.fromEntries(Object.entries(h).filter(([, v]) => typeof v !== 'function')) as LabFields;
  });
}

/** The scene's model at the step; S is the shape the scene's test expects. */
export function modelState<S>(page: Page): Promise<S> {
  return page.evaluate(() => window.__lab!.state() as S);
}

/** The native labrun of a variant on the machine of a word size (build/native at 32 bits, build/native64 at 64). */
export function nativeLabrun(bits: number, variant: string): string {
  return labrunPath(variant, bits === 64 ? 64 : 32);
}

/** One line of labrun --explore: the search up to one bound. */
export interface ExploreSummary {
  bound: number;
  executions: number;
  executions_total: number;
  end_states: number;
  failing_executions: number;
  shortest: { preemptions: number; decisions: number; schedule: string; replayed: { kinds: string[]; step: number; report: string } } | null;
}

/** A kernel of the registry (kernel-tree/manifest.json "kernels"). */
export interface RegistryKernel { name: string; branch: string; base?: string; kind: string; scenes?: string[]; traits?: string[] }

/** The kernel of a scene whose registry entry has a trait (what it does differently): the test of that behaviour. */
export function kernelWithTrait(scene: string, trait: string): RegistryKernel {
  const kernels = (JSON.parse(readFileSync('kernel-tree/manifest.json', 'utf8')) as { kernels: RegistryKernel[] }).kernels;
  const k = kernels.find((x) => x.scenes?.includes(scene) && x.traits?.includes(trait));
  if (!k) throw new Error(`kernel-tree/manifest.json has no kernel of ${scene} with the trait ${trait}`);
  return k;
}

/** A race of wasm/explore.json: the scene's small set-up the Explore panel searches. */
export function exploreRace(scene: string): { scene: string; scenario: string; args: string[] } {
  const races = (JSON.parse(readFileSync('wasm/explore.json', 'utf8')) as { races: { scene: string; scenario: string; args: string[] }[] }).races;
  return races.find((r) => r.scene === scene)!;
}

/** labrun --explore natively at a word size: its lines, one per bound from 0 (the page's search prints the same). */
export function exploreNative(bits: number, variant: string, scenario: string, args: string[], bound: number): Promise<ExploreSummary[]> {
  const bin = nativeLabrun(bits, variant);
  const all = ['--explore', '--scenario', scenario, ...args, '--bound', String(bound)];
  return new Promise((resolve, reject) => {
    execFile(bin, all, { env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' }, encoding: 'utf8', maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      // exit 1: an execution failed
      if (err && err.code !== 1) { reject(new Error(`${bin} ${all.join(' ')}: ${err.message}: ${stderr}`)); return; }
      resolve(stdout.trim().split('\n').map((l) => JSON.parse(l) as ExploreSummary));
    });
  });
}

/** Where the report's text starts, against the window (for a poll: it must start inside it, its first lines seen). */
export function reportTextTop(page: Page): Promise<{ top: number; inView: boolean }> {
  return page.getByTestId('reports.text').evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top), inView: r.top >= 0 && r.top + Math.min(r.height, 60) <= window.innerHeight };
  });
}

export interface LabSite {
  tree: string;
  file: string;
  line: number;
  func: string;
}

export class Lab {
  constructor(readonly page: Page) {}

  async open(query: string) {
    await this.page.goto(query);
    await expect(this.page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
    // The test handle is refreshed by an effect, just after the render that shows the run.
    await expect
      .poll(() => this.page.evaluate(() => window.__lab?.ready ?? false))
      .toBe(true);
  }

  /** Stand at event n, as a permalink or a click on the timeline would. */
  async goTo(n: number) {
    await this.page.evaluate((k) => window.__lab!.goTo(k), n);
    await expect.poll(() => this.currentStep()).toBe(n);
  }

  step() {
    return this.page.getByTestId('scene.step').click();
  }

  /** The word size of the machine the run shown ran on. */
  bits(): Promise<number> {
    return this.page.evaluate(() => window.__lab!.meta()!.bits);
  }

  currentStep(): Promise<number> {
    return this.page.evaluate(() => window.__lab!.step);
  }

  site(): Promise<LabSite | null> {
    return this.page.evaluate(() => window.__lab!.site());
  }

  narration(): Promise<string> {
    return this.page.evaluate(() => window.__lab!.narration());
  }

  highlightedLine() {
    return this.page.getByTestId('code.line.current');
  }

  /** Text of a line of a file on a branch of kernel-tree/linux. */
  static kernelLine(branch: string, file: string, line: number): string {
    return Lab.kernelLines(branch, file, line)[line - 1];
  }

  /** Lines 1..upTo of a file on a branch of kernel-tree/linux. */
  static kernelLines(branch: string, file: string, upTo: number): string[] {
    const text = execFileSync('git', ['-C', 'kernel-tree/linux', 'show', `${branch}:${file}`], { encoding: 'utf8', maxBuffer: 1 << 26 });
    return text.split('\n').slice(0, upTo);
  }
}

/**
 * The heat map's cells as a person sees them (lru-batch): a point, from its canvas's top left corner (for
 * click({ position })), well inside each
 * coloured cell of its canvas (the same colour 2 pixels around it each way), along each lock's row, in reading order.
 */
export async function heatCellPoints(page: Page): Promise<{ x: number; y: number }[]> {
  const canvas = page.getByTestId('lru.heat.cells');
  const rows = await page.getByTestId('lru.heat').locator('text[data-testid^="lru.heat."]').count();
  return canvas.evaluate((cv: HTMLCanvasElement, rows: number) => {
    const { width, height } = cv;
    const px = cv.getContext('2d')!.getImageData(0, 0, width, height).data;
    const k = width / cv.clientWidth;
    const at = (x: number, y: number) => (y * width + x) * 4;
    const same = (x: number, y: number, x2: number, y2: number) =>
      x2 >= 0 && x2 < width && y2 >= 0 && y2 < height && [0, 1, 2, 3].every((c) => px[at(x, y) + c] === px[at(x2, y2) + c]);
    const inside = (x: number, y: number) =>
      px[at(x, y) + 3] > 0 && [[-2, 0], [2, 0], [0, -2], [0, 2]].every(([dx, dy]) => same(x, y, x + dx, y + dy));
    // Along the middle of each row (a row's cells are its height less a pixel): a run of one colour is a cell.
    const out: { x: number; y: number }[] = [];
    for (let r = 0; r < rows; r++) {
      const y = Math.floor(((r + 0.45) * height) / rows);
      let run = -1;
      for (let x = 0; x <= width; x++) {
        const ok = x < width && inside(x, y) && (run < 0 || same(run, y, x, y));
        if (run >= 0 && !ok) {
          if (x - run >= 3) out.push({ x: (run + x - 1) / 2 / k, y: y / k });
          run = -1;
        }
        if (ok && run < 0) run = x;
      }
    }
    return out;
  }, rows);
}
