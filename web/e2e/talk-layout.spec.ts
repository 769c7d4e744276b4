// SPDX-License-Identifier: GPL-2.0-only
// Talk mode on a projector: for every slide of every lesson and every talk
// (the lessons and talks registries, through the test handle) at 1280×720
// and 1920×1080, every
// element lies inside the slide frame, no text is cut at a box's edge (scrollWidth > clientWidth of a box that holds
// text), the code pane's lit line and its statement are whole in it, the audience's document is no taller or wider
// than its window, a demo's scene fits its box whole (a lesson's at its first, middle and last
// events and where each goal is met), and text meets the talk type scale's
// minimums (computed font size times the zoom it is drawn at, against the
// minimum at 1920×1080 scaled by the slide's size); axe on the projector
// theme; a screenshot of each slide. At 3840×2160 too under @slow; the
// presenter's window, whose slide is smaller, at 1920×1080.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { labFields } from './lab';

/** The type scale at 1920×1080 (web/src/talk/talk.css), by what the text is. */
const MIN = { body: 28, code: 22, other: 18 };

interface Problem {
  what: string;
  text: string;
  detail: string;
}

/** Every element of the slide outside its frame, and every text below its minimum. */
function checkSlide(page: Page): Promise<Problem[]> {
  return page.evaluate((min) => {
    const frame = document.querySelector<HTMLElement>('[data-testid="talk.slide"]')!;
    const f = frame.getBoundingClientRect();
    const scale = f.width / 1920;
    const out: { what: string; text: string; detail: string }[] = [];
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}`;
    const textOf = (el: Element) => (el.textContent ?? '').trim().slice(0, 60);
    // What of an element can be seen: its box, cut by every ancestor inside the frame that clips.
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      let [l, t, rr, b] = [r.left, r.top, r.right, r.bottom];
      for (let a = el.parentElement; a && a !== frame; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
          const c = a.getBoundingClientRect();
          if (s.overflowX !== 'visible') [l, rr] = [Math.max(l, c.left), Math.min(rr, c.right)];
          if (s.overflowY !== 'visible') [t, b] = [Math.max(t, c.top), Math.min(b, c.bottom)];
        }
      }
      return rr - l > 0.5 && b - t > 0.5 ? { l, t, r: rr, b } : null;
    };
    const shown = (el: Element) => {
      const s = getComputedStyle(el);
      return s.display !== 'none' && s.visibility !== 'hidden' && !el.closest('.sr-only');
    };
    // The demo's scene whole in its box: nobody scrolls during a talk (the slide chooses the scene's parts, talks/README.md).
    const scene = frame.querySelector<HTMLElement>('.talk-scene');
    if (scene && (scene.scrollHeight > scene.clientHeight + 1 || scene.scrollWidth > scene.clientWidth + 1)) {
      const parts = [...scene.querySelectorAll(':scope > .scene > *, :scope > .scene ~ *')].map((e) => `${name(e)} ${Math.round(e.getBoundingClientRect().height)} px`);
      out.push({ what: 'the scene overflows its box', text: parts.join(', '), detail: `${scene.scrollWidth}×${scene.scrollHeight} drawn in ${scene.clientWidth}×${scene.clientHeight}` });
    }
    // The lit line and the rest of its statement (the pane marks them) whole in the code pane, or, for a statement
    // taller than the pane, its first line at least.
    const body = frame.querySelector<HTMLElement>('[data-testid="talk.code"] [data-testid="code.body"]');
    const stmt = body ? [...body.querySelectorAll<HTMLElement>('.code-line.current, .code-line.stmt')] : [];
    if (body && stmt.length) {
      const b = body.getBoundingClientRect();
      const first = stmt[0].getBoundingClientRect();
      const last = stmt[stmt.length - 1].getBoundingClientRect();
      const tall = last.bottom - first.top > b.height;
      if (first.top < b.top - 1 || (!tall && last.bottom > b.bottom + 1) || (tall && first.bottom > b.bottom + 1))
        out.push({ what: 'the lit line\'s statement is not whole in the code pane', text: textOf(stmt[0]), detail: `lines ${stmt[0].dataset.line}–${stmt[stmt.length - 1].dataset.line} at ${Math.round(first.top)}–${Math.round(last.bottom)}, the pane ${Math.round(b.top)}–${Math.round(b.bottom)}` });
    }
    for (const el of frame.querySelectorAll('*')) {
      if (!shown(el)) continue;
      const v = visible(el);
      if (!v) continue;
      if (v.l < f.left - 1 || v.t < f.top - 1 || v.r > f.right + 1 || v.b > f.bottom + 1)
        out.push({ what: `outside the frame: ${name(el)}`, text: textOf(el), detail: `${JSON.stringify(v)} vs frame ${JSON.stringify({ l: f.left, t: f.top, r: f.right, b: f.bottom })}` });
      // Text cut at a box's edge: a box holding text whose content is wider than the box (a code line past the pane's
      // right edge, a word past its cell), whether the box clips it or lets it spill over what is beside it.
      if (el instanceof HTMLElement && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && (el.textContent ?? '').trim())
        out.push({ what: `text cut at the right edge of ${name(el)}`, text: textOf(el), detail: `scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}` });
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim());
      if (!ownText) continue;
      const kind = el.closest('.code-body, .patch-code')
        ? 'code'
        : el.closest('.slide-text, .slide-title, .slide-goals ul, .talk-caption, .patch-where, .patch-note, .slide .loading')
          ? 'body'
          : 'other';
      const px = parseFloat(getComputedStyle(el).fontSize) * ((el as HTMLElement).currentCSSZoom ?? 1);
      if (px < min[kind] * scale - 0.05)
        out.push({ what: `${kind} text below ${min[kind]} px at 1920×1080: ${name(el)}`, text: textOf(el), detail: `${px.toFixed(1)} px drawn, ${(min[kind] * scale).toFixed(1)} px needed` });
    }
    return out;
  }, MIN);
}

/** Wait until the slide has what it draws: the demo its code line, the patch its code. */
async function settled(page: Page) {
  const kind = await page.getByTestId('talk.slide').getAttribute('data-kind');
  if (kind === 'demo') await expect(page.locator('[data-testid="talk.slide"] [data-testid="code.line.current"]')).toBeVisible();
  if (kind === 'patch') await expect(page.locator('.patch-code .pl, .patch-code .cmd').first()).toBeVisible();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return kind;
}

/** A talk file's live slides: the step each one's permalink stands at. */
function liveSteps(id: string): Map<number, number> {
  const talk = JSON.parse(readFileSync(`talks/${id}.json`, 'utf8')) as { slides: { live?: string }[] };
  const out = new Map<number, number>();
  talk.slides.forEach((s, i) => s.live && out.set(i, Number(new URLSearchParams(s.live.slice(s.live.indexOf('?'))).get('step') ?? 0)));
  return out;
}

/** shots: a screenshot of every slide, of the demo and patch slides only, or none; role: the window (the presenter's
 * shows the slide smaller, beside the notes and controls). */
async function sweep(page: Page, w: number, h: number, shots: 'all' | 'scene' | 'none', role: 'audience' | 'presenter' = 'audience') {
  await page.setViewportSize({ width: w, height: h });
  await page.goto('./?step=0');
  await expect.poll(() => page.evaluate(() => window.__lab?.ready ?? false)).toBe(true);
  const { lessons, talks } = await labFields(page);
  expect(lessons.length).toBeGreaterThan(5);
  expect(talks.length).toBeGreaterThan(0);
  // Lessons, whose one demo is checked along its run, and talk files, whose live slides are checked at their permalinks' steps.
  const decks = [
    ...lessons.map((l) => ({ id: l.id, url: `./?lesson=${l.id}&talk=${role === 'presenter' ? 'presenter' : 1}`, slides: l.slides, steps: null })),
    ...talks.map((t) => ({ id: t.id, url: `./?deck=${t.id}${role === 'presenter' ? '&talk=presenter' : ''}`, slides: t.slides, steps: liveSteps(t.id) })),
  ];
  let slides = 0;
  let states = 0;
  let goalStates = 0;
  const problems: string[] = [];
  for (const lesson of decks) {
    await page.goto(lesson.url);
    await expect.poll(() => page.evaluate(() => window.__lab?.ready ?? false)).toBe(true);
    for (let s = 0; s < lesson.slides; s++) {
      if (s > 0) await page.keyboard.press('ArrowRight');
      await expect(page.getByTestId('talk.slide')).toHaveAttribute('data-slide', String(s));
      const live = lesson.steps?.get(s);
      if (live !== undefined) await expect.poll(async () => (await labFields(page)).step).toBe(live);
      const kind = await settled(page);
      // A lesson's demo at its first event, in the middle of the run, at its end, and at the event where each of its
      // goals is met (where the lesson sends a person): the scene draws more as it goes.
      const places: { label: string; step: (length: number) => number }[] = [];
      if (kind === 'demo' && !lesson.steps) {
        for (const f of [0, 0.5, 1]) places.push({ label: ` at ${f}`, step: (length) => Math.round(f * (length - 1)) });
        const goals = await page.evaluate((id) => window.__lab!.goalSteps(id), lesson.id);
        for (const [goal, at] of Object.entries(goals)) places.push({ label: ` at goal ${goal}, event ${at}`, step: () => at });
        goalStates += Object.keys(goals).length;
      }
      for (const place of places.length ? places : [null]) {
        if (place) {
          const n = place.step((await labFields(page)).length);
          await page.evaluate((k) => window.__lab!.goTo(k), n);
          await expect.poll(async () => (await labFields(page)).step).toBe(n);
          await settled(page);
        }
        states++;
        for (const p of await checkSlide(page)) problems.push(`${lesson.id} slide ${s} (${kind}${place?.label ?? ''}) ${w}×${h}: ${p.what} “${p.text}” ${p.detail}`);
        if (role === 'audience') {
          // The projected window never scrolls: its document is the window.
          const d = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight, iw: innerWidth, ih: innerHeight }));
          if (d.w > d.iw || d.h > d.ih) problems.push(`${lesson.id} slide ${s} (${kind}${place?.label ?? ''}) ${w}×${h}: the audience's document is larger than its window “” ${d.w}×${d.h} in ${d.iw}×${d.ih}`);
        }
      }
      if (shots === 'all' || (shots === 'scene' && (kind === 'demo' || kind === 'patch'))) await page.screenshot({ path: test.info().outputPath(`${lesson.id}-${s}-${kind}-${role}-${w}x${h}.png`) });
      slides++;
    }
  }
  // Each kind of problem once, with how often it was seen and its first place.
  const kinds = new Map<string, { n: number; first: string }>();
  for (const p of problems) {
    const key = p.replace(/^\S+ slide \d+ \([^)]*\) \S+: /, '').replace(/ “.*$/, '');
    const k = kinds.get(key);
    if (k) k.n++;
    else kinds.set(key, { n: 1, first: p });
  }
  expect([...kinds.values()].map((k) => `${k.n}× ${k.first}`)).toEqual([]);
  return `${slides} slides, ${states} states (${goalStates} where a lesson's goal is met)`;
}

for (const [w, h] of [
  [1280, 720],
  [1920, 1080],
]) {
  test(`every slide of every lesson and talk fits its frame and meets the type scale at ${w}×${h}`, async ({ page }) => {
    // About 100 slides, each run to its state: under a minute alone, more on a loaded machine.
    test.setTimeout(300_000);
    const n = await sweep(page, w, h, w < 1920 ? 'all' : 'scene');
    console.log(`talk layout ${w}×${h}: ${n} checked`);
  });
}

test('in the presenter\'s window, every slide fits its smaller frame and meets the type scale, at 1920×1080', async ({ page }) => {
  test.setTimeout(300_000);
  const n = await sweep(page, 1920, 1080, 'none', 'presenter');
  console.log(`talk layout, presenter's window 1920×1080: ${n} checked`);
});

test('every slide of every lesson fits its frame and meets the type scale at 3840×2160 @slow', async ({ page }) => {
  test.setTimeout(300_000);
  await sweep(page, 3840, 2160, 'scene');
});

test('the projector theme has no serious accessibility violations on any kind of slide', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('./?lesson=sentinel-collision&talk=1');
  await expect.poll(() => page.evaluate(() => window.__lab?.ready ?? false)).toBe(true);
  const seen = new Set<string>();
  for (let s = 0; s < 12; s++) {
    const kind = await settled(page);
    if (kind && !seen.has(kind)) {
      seen.add(kind);
      const r = await new AxeBuilder({ page }).analyze();
      const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${kind}: ${v.id} ${v.nodes[0]?.target.join(' ')}`);
      expect.soft(bad).toEqual([]);
    }
    await page.keyboard.press('ArrowRight');
  }
  expect([...seen].sort()).toEqual(['demo', 'goals', 'patch', 'text', 'title']);
});
