// SPDX-License-Identifier: GPL-2.0-only
// Page object for the lab: opens a scene, steps it, and reads its state
// through the window.__lab test handle rather than through pixels alone.
import { expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import type { LabHandle } from '../src/app/testHandle';

/** The handle's plain fields: its functions stay in the page. */
export type LabFields = { [K in keyof LabHandle as LabHandle[K] extends (...a: never[]) => unknown ? never : K]: LabHandle[K] };

/** The handle's plain fields as they are now (window.__lab is typed by testHandle.ts). */
export function labFields(page: Page): Promise<LabFields> {
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
