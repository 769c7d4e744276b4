// SPDX-License-Identifier: GPL-2.0-only
//
// node wasm/tests/wasm64-browser.mjs VARIANT [SEED]
//
// The 64-bit wasm machine in Chromium (make test-wasm64): the variant's
// labrun built for the web (build/wasm64/<variant>/labrun-web.js, emcc
// -sMEMORY64=2, lowered to a 32-bit memory, so the browser needs no
// memory64) runs every scenario of the variant at SEED (1) in a page, and
// each event-log digest (--hash) must be native64's. The page is served
// from a port of the system's choosing; CHROMIUM names the browser
// (/usr/bin/chromium, as the end-to-end tests).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const variant = process.argv[2];
const seed = process.argv[3] ?? '1';
if (!variant) {
  console.error('usage: wasm64-browser.mjs VARIANT [SEED]');
  process.exit(2);
}
const dir = join(root, 'build/wasm64', variant);
const native = join(root, 'build/native64', variant, 'labrun');
const env = { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' };

// labrun is the Node CLI: its CPU clock (cpu_seconds()) reads
// process.cpuUsage(), which the page stands in for. A run ends with the
// line "<digest> <n> events <how>"; stdout and stderr are kept in order.
const page = `<!doctype html><meta charset="utf-8"><title>wasm64</title><pre id="out"></pre><script>
var process = { cpuUsage: function() { return { user: performance.now() * 1000, system: 0 }; } };
var lines = [];
var Module = {
  arguments: JSON.parse(new URLSearchParams(location.search).get('args')),
  print: function(t) { lines.push(t); document.getElementById('out').textContent = lines.join('\\n'); },
  printErr: function(t) { lines.push('stderr: ' + t); },
};
</script><script src="labrun-web.js"></script>`;
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (path === '/') {
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    return;
  }
  const name = path.slice(1);
  if (name !== 'labrun-web.js' && name !== 'labrun-web.wasm') {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': types[name.slice(name.lastIndexOf('.'))] })
    .end(readFileSync(join(dir, name)));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const port = server.address().port;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
const tab = await browser.newPage();
const errors = [];
tab.on('pageerror', (e) => errors.push(String(e)));
const list = spawnSync(native, ['--list'], { env, encoding: 'utf8' });
const scenarios = list.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
let fail = scenarios.length === 0;
let same = 0;
for (const s of scenarios) {
  const args = ['--scenario', s, '--seed', seed, '--hash'];
  const want = spawnSync(native, args, { env, encoding: 'utf8' }).stdout.trim();
  errors.length = 0;
  await tab.goto(`http://127.0.0.1:${port}/?args=${encodeURIComponent(JSON.stringify(args))}`);
  let got;
  try {
    await tab.waitForFunction(() => lines.some((l) => / events \w+$/.test(l)) || lines.some((l) => l.startsWith('stderr: Aborted')),
      null, { timeout: 120000 });
    got = await tab.evaluate(() => lines.filter((l) => / events \w+$/.test(l)).join(' '));
  } catch (e) {
    got = `no digest (${errors.join('; ') || e.message.split('\n')[0]})`;
  }
  if (got === want) {
    same++;
  } else {
    console.log(`wasm64-browser: ${variant} ${s} seed ${seed}: native64 ${want}, Chromium ${got}`);
    fail = true;
  }
}
console.log(`wasm64-browser: ${variant}: ${same} of ${scenarios.length} scenarios at seed ${seed} give native64's log in Chromium ${browser.version()} (wasm64, memory lowered to 32 bits)`);
await browser.close();
server.close();
process.exit(fail ? 1 : 0);
