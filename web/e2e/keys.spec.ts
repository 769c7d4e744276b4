// SPDX-License-Identifier: GPL-2.0-only
// One key map, whatever has focus: after a person clicks any kind of
// control (a button, "A hint", Step, a select chosen by mouse, a checkbox),
// space still plays and the arrows, Home and End still step; Escape brings
// focus back to the scene; `?` lists every key; a new kernel opens at the
// same virtual time.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { Lab, labFields } from './lab';

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? null);

/** With `control` still focused, the keys play and step the scene. */
async function keysDrive(lab: Lab, control: Locator, what: string) {
  const page = lab.page;
  const id = await control.getAttribute('data-testid');
  expect(await focusedTestId(page), `${what} keeps focus after the click`).toBe(id);
  const last = (await labFields(page)).length - 1;
  await page.keyboard.press('Home');
  await expect.poll(() => lab.currentStep(), `${what}: Home`).toBe(0);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => lab.currentStep(), `${what}: →`).toBe(1);
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(() => lab.currentStep(), `${what}: Shift+→`).toBe(11);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => lab.currentStep(), `${what}: ←`).toBe(10);
  await page.keyboard.press('Shift+ArrowLeft');
  await expect.poll(() => lab.currentStep(), `${what}: Shift+←`).toBe(0);
  await page.keyboard.press('End');
  await expect.poll(() => lab.currentStep(), `${what}: End`).toBe(last);
  await page.keyboard.press('Home');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('scene.play'), `${what}: space plays`).toHaveText(/Pause/);
  await expect.poll(() => lab.currentStep(), `${what}: playing moves on`).toBeGreaterThan(0);
  await page.keyboard.press(' ');
  await expect(page.getByTestId('scene.play'), `${what}: space pauses`).toHaveText(/Play/);
  // (Home and End disable First, Back, Step or Last: a disabled button drops focus, and the keys go on working.)
}

/**
 * Choose an option with the mouse: a click opens the select's popup, the
 * option is picked, and the popup closes as a click on a row closes it.
 * Playwright cannot click a native popup's rows, and its pick leaves the
 * popup open: Escape closes it (the popup takes that key; the page never
 * sees it).
 */
async function chooseByMouse(select: Locator, value: string) {
  await select.click();
  await select.selectOption(value);
  await select.page().keyboard.press('Escape');
  await expect(select).toHaveValue(value);
}

test('after a click on any button, the keys still play and step', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?lesson=intro-reclaim');
  await page.getByTestId('lesson.hint').click();
  await keysDrive(lab, page.getByTestId('lesson.hint'), '"A hint"');
  await lab.goTo(5);
  await page.getByTestId('scene.step').click();
  await expect.poll(() => lab.currentStep()).toBe(6);
  await keysDrive(lab, page.getByTestId('scene.step'), 'Step ▶');
  await lab.goTo(5);
  await page.getByTestId('scene.back').click();
  await keysDrive(lab, page.getByTestId('scene.back'), '◀ Back');
  await page.getByTestId('scene.play').click();
  await page.getByTestId('scene.play').click();
  await keysDrive(lab, page.getByTestId('scene.play'), 'Play');
});

test('after a choice in a select by mouse, the keys still play and step', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-churn&seed=3&step=0');
  await chooseByMouse(page.getByTestId('scene.speed'), '64');
  await keysDrive(lab, page.getByTestId('scene.speed'), 'the speed select');
  await chooseByMouse(page.getByTestId('scene.policy'), 'rr');
  await expect.poll(async () => (await labFields(page)).policy).toBe('rr');
  await expect.poll(async () => (await labFields(page)).ready).toBe(true);
  await keysDrive(lab, page.getByTestId('scene.policy'), 'the scheduler select');
  await chooseByMouse(page.getByTestId('scene.variant'), 'srcu');
  await expect.poll(async () => { const f = await labFields(page); return f.ready && f.variant; }).toBe('srcu');
  await keysDrive(lab, page.getByTestId('scene.variant'), 'the kernel select');
});

test('after a click on a checkbox, the keys still play and step', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=lru-batch&step=0');
  const box = page.getByTestId('lru.setup.all');
  await box.click();
  await expect(box).toBeChecked();
  await keysDrive(lab, box, 'a checkbox');
  await expect(box, 'space played; it did not toggle the box').toBeChecked();
});

test('Tab to a button and space presses it; Escape returns focus to the scene; ? lists every key', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-lifetime&step=5');
  await page.getByTestId('scene.step').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab'); // reached by keyboard: space keeps its native meaning
  await page.keyboard.press(' ');
  await expect.poll(() => lab.currentStep()).toBe(6);
  await page.keyboard.press('Escape');
  expect(await focusedTestId(page)).toBe('stage');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => lab.currentStep()).toBe(7);
  await page.keyboard.press('?');
  const help = page.getByTestId('keys.help');
  await expect(help).toBeVisible();
  for (const k of ['space', '→', '←', 'Home', 'End', '?', 'Esc']) await expect(help.locator('kbd', { hasText: k }).first()).toBeVisible();
  await expect(help).toContainText('Shift: ten');
  await page.screenshot({ path: 'test-results/keys-help.png' });
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  expect(await focusedTestId(page)).toBe('stage');
  await page.getByTestId('keys.open').click();
  await expect(help).toBeVisible();
  await page.keyboard.press('?');
  await expect(help).toHaveCount(0);
});

test('Escape from every kind of control brings focus back to the scene, and the keys drive it again', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=lru-batch&step=5');
  // [what, the control, how focus gets there]: a text field (the seed), a number field, a select, a checkbox, the
  // scrubber, a button, a link, a disclosure, and the code pane (a focusable box).
  const controls: [string, Locator, 'click' | 'focus'][] = [
    ['the seed field', page.getByTestId('scene.seed'), 'click'],
    ['a number field', page.getByTestId('lru.setup.tasks'), 'click'],
    ['a select', page.getByTestId('scene.speed'), 'focus'],
    ['a checkbox', page.getByTestId('lru.setup.all'), 'focus'],
    ['the scrubber', page.getByTestId('scene.scrub'), 'focus'],
    ['a button', page.getByTestId('scene.step'), 'focus'],
    ['a link', page.getByTestId('lesson.index'), 'focus'],
    ['a disclosure', page.getByTestId('scene.picker').locator('summary'), 'focus'],
    ['the code pane', page.getByTestId('code.body'), 'click'],
  ];
  for (const [what, control, how] of controls) {
    await lab.goTo(5);
    if (how === 'click') await control.click();
    else await control.focus();
    expect(await control.evaluate((e) => e === document.activeElement), `${what} has focus`).toBe(true);
    await page.keyboard.press('Escape');
    expect(await focusedTestId(page), `Escape from ${what}`).toBe('stage');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => lab.currentStep(), `→ after Escape from ${what}`).toBe(6);
    await page.keyboard.press('?');
    await expect(page.getByTestId('keys.help'), `? after Escape from ${what}`).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('keys.help')).toHaveCount(0);
  }
  // The seed field typed nothing of those keys, and still runs a seed typed into it.
  await expect(page.getByTestId('scene.seed')).toHaveValue('1');
  // In a dialog's text field: Escape closes the dialog, and the scene has the keys.
  await page.keyboard.press('t');
  await page.getByTestId('builder.title').click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('builder')).toHaveCount(0);
  expect(await focusedTestId(page)).toBe('stage');
  // In talk mode, from the presenter's seed field: Escape, and the slide keys work.
  await page.goto('?lesson=sentinel-collision&talk=presenter');
  await expect.poll(async () => (await labFields(page)).ready).toBe(true);
  await page.keyboard.press('ArrowRight');
  for (let i = 0; i < 12 && (await page.getByTestId('talk.slide').getAttribute('data-kind')) !== 'demo'; i++) await page.keyboard.press('ArrowRight');
  const slide = Number(await page.getByTestId('talk.slide').getAttribute('data-slide'));
  await page.getByTestId('scene.seed').click();
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('talk.slide')).toHaveAttribute('data-slide', String(slide + 1));
});

test('a new kernel opens at the same virtual time', async ({ page }) => {
  const lab = new Lab(page);
  await lab.open('?scene=shrinker-churn&seed=3&step=400');
  const t = (await page.evaluate(() => window.__lab!.event()!.time));
  await page.getByTestId('scene.variant').selectOption('v6.12');
  await expect.poll(async () => { const f = await labFields(page); return f.ready && f.variant; }).toBe('v6.12');
  const s = await lab.currentStep();
  expect(s).toBeGreaterThan(0);
  // The last event whose clock is not past t: its own time is at most t, the next one's beyond it.
  expect(await page.evaluate(() => window.__lab!.event()!.time)).toBeLessThanOrEqual(t);
  await lab.goTo(s + 1);
  expect(await page.evaluate(() => window.__lab!.event()!.time)).toBeGreaterThan(t);
});
