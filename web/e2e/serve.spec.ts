// SPDX-License-Identifier: GPL-2.0-only
// What `make start` serves (scripts/serve.mjs, which these tests run
// against): the production build, gzip-compressed, with a
// Content-Security-Policy that names no remote origin and allows no eval,
// under which every scene, a lesson, talk mode and an embed run with no
// violation.
import { expect, test, type Page } from '@playwright/test';
import { CSP, CSP_DIRECTIVES } from '../../scripts/csp.mjs';
import { Lab, labFields } from './lab';

/** Collect the page's CSP violations (the event, and the console line Chromium prints). */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective}: ${e.blockedURI}`));
  });
  return async () => [...seen, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))];
}

test('the CSP is sent, names no remote origin and allows no eval', async ({ request }) => {
  for (const path of ['./', './?scene=lru-batch']) {
    const r = await request.get(path);
    expect(r.status()).toBe(200);
    expect(r.headers()['content-security-policy']).toBe(CSP);
  }
  const sources = Object.values(CSP_DIRECTIVES).flat();
  // Only the page's own origin, data: for the empty favicon, and nothing remote or wild.
  for (const s of sources) expect(["'self'", "'none'", "'wasm-unsafe-eval'", 'data:']).toContain(s);
  expect(CSP).not.toMatch(/'unsafe-eval'|'unsafe-inline'|https?:|\*/);
  expect(CSP_DIRECTIVES['script-src']).toContain("'wasm-unsafe-eval'");
});

test('every scene, a lesson, talk mode and an embed run under the CSP with no violation', async ({ page }) => {
  const violations = await watchViolations(page);
  const l = new Lab(page);
  await l.open('?step=0');
  const scenes = await labFields(page).then((f) => f.scenes);
  expect(scenes.length).toBeGreaterThan(5);
  for (const scene of scenes) {
    await l.open(`?scene=${scene}&step=40`);
    await expect(l.highlightedLine().or(page.getByText('No kernel line')).first()).toBeVisible();
    // Play a moment: the views animate and the code pane fetches other files.
    await page.getByTestId('scene.play').click();
    await page.waitForTimeout(300);
    await page.getByTestId('scene.play').click();
  }
  await l.open('?lesson=bitmap-recheck');
  await l.open('?scene=shrinker-churn&embed=1&step=200');
  await page.goto('?lesson=intro-reclaim&talk=1');
  await expect(page.getByTestId('talk.audience')).toBeVisible();
  await expect(page.getByTestId('scene.ready')).toBeVisible({ timeout: 30_000 });
  expect(await violations()).toEqual([]);
  // A string run as code after the page's own scripts (not through the test's
  // evaluate, which the browser exempts) is refused and reported.
  await page.evaluate(() => setTimeout('window.__evalRan = true', 0));
  // (Reported once per copy of the policy: the header and the built page's meta.)
  await expect.poll(async () => (await violations()).includes('script-src: eval')).toBe(true);
  for (const v of await violations()) expect(v).toMatch(/eval/);
  expect(await page.evaluate(() => (window as unknown as { __evalRan?: boolean }).__evalRan)).toBeUndefined();
});

/** Every request of a fresh page load until it settles: bytes on the wire (encoded body and headers) and encoding. */
async function firstLoad(page: Page, open: () => Promise<void>) {
  const loads: { url: string; bytes: number; encoding: string; type: string }[] = [];
  page.on('requestfinished', async (req) => {
    const res = await req.response();
    if (!res) return;
    const sizes = await req.sizes();
    const h = await res.allHeaders();
    loads.push({ url: req.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize, encoding: h['content-encoding'] ?? '', type: h['content-type'] ?? '' });
  });
  await open();
  await page.waitForLoadState('networkidle');
  return { loads, total: loads.reduce((n, x) => n + x.bytes, 0) };
}

test('the first load of the landing view and of the default scene is compressed and at most 500 KB', async ({ browser }) => {
  const landing = await browser.newPage();
  const a = await firstLoad(landing, async () => {
    await landing.goto('./');
    await expect(landing.getByTestId('landing')).toBeVisible();
  });
  // The default scene: the landing view's first card.
  const href = (await landing.locator('.scene-card-link').first().getAttribute('href'))!;
  const page = await browser.newPage();
  const l = new Lab(page);
  const b = await firstLoad(page, async () => {
    await l.open(href);
    await expect(l.highlightedLine()).toBeVisible();
  });
  for (const [what, r] of [['landing view', a], [`default scene (${href})`, b]] as const) {
    const line = `first load of the ${what}: ${r.loads.length} requests, ${r.total} bytes on the wire`;
    test.info().annotations.push({ type: 'first load', description: line });
    console.log(line);
    for (const x of r.loads) expect(x.encoding, `${x.url} (${x.type})`).toBe('gzip');
    expect(r.total).toBeLessThanOrEqual(500_000);
  }
});
