#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
// Serves the production build (dist/) the way `make start` and the
// end-to-end tests see it: gzip for every text and wasm file, the
// Content-Security-Policy of scripts/csp.mjs on every response, hashed
// assets cached for good and everything else revalidated. A request whose
// header is past Node's limit (a link of some 16,000 characters) is
// refused with 431 and the page itself, which reads the link from the
// address bar and says it was too long.
//
//   node scripts/serve.mjs [--port 5173] [--host 127.0.0.1] [--root dist]
import { createServer } from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCb, gzipSync } from 'node:zlib';
import { CSP } from './csp.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const port = Number(opt('port', process.env.PORT ?? '5173'));
const host = opt('host', process.env.HOST ?? '127.0.0.1');
const root = resolve(opt('root', 'dist'));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
// Kernel sources for the code pane (.c, .h, Makefiles…) are text.
const typeOf = (path) => TYPES[extname(path)] ?? 'text/plain; charset=utf-8';
const compressible = (type) => !type.startsWith('image/') || type === 'image/svg+xml';

// Compressed bodies, kept while the file is unchanged.
const cache = new Map();
async function body(path, st, gzip) {
  const key = `${path}\0${st.mtimeMs}\0${st.size}`;
  let e = cache.get(path);
  if (!e || e.key !== key) {
    e = { key, raw: await readFile(path), gz: null };
    cache.set(path, e);
  }
  if (!gzip) return e.raw;
  e.gz ??= gzipSync(e.raw, { level: 9 });
  return e.gz;
}

// The hashed assets (the page's code and each kernel's module) compressed before the server answers, as a
// static host serves them precompressed: else a page's first load after a start waits for gzip at level 9
// (about 50 ms for the page's code and 40 for a kernel's module, on its way to the first frame).
async function precompress() {
  const gzip = promisify(gzipCb);
  const dir = join(root, 'assets');
  const names = await readdir(dir).catch(() => []);
  await Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      const st = await stat(path);
      if (!st.isFile() || !compressible(typeOf(path))) return;
      const raw = await readFile(path);
      cache.set(path, { key: `${path}\0${st.mtimeMs}\0${st.size}`, raw, gz: await gzip(raw, { level: 9 }) });
    }),
  );
}

const server = createServer(async (req, res) => {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    res.writeHead(400).end();
    return;
  }
  if (pathname.endsWith('/')) pathname += 'index.html';
  const path = normalize(join(root, pathname));
  if (path !== root && !path.startsWith(root + sep)) {
    res.writeHead(403).end();
    return;
  }
  let st;
  try {
    st = await stat(path);
    if (!st.isFile()) throw new Error('not a file');
  } catch {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    return;
  }
  const type = typeOf(path);
  const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const headers = {
    'Content-Type': type,
    ETag: etag,
    'Cache-Control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    Vary: 'Accept-Encoding',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const gzip = compressible(type) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const data = await body(path, st, gzip);
  if (gzip) headers['Content-Encoding'] = 'gzip';
  headers['Content-Length'] = data.length;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : data);
});

// Past Node's header limit (--max-http-header-size, 16 KiB) the request cannot be read, so its path is not known: the
// answer is 431, as any server's to a request past its limit, with the page itself (the app, whose assets are under /)
// rather than an empty body, which the browser shows as its own error page. The page reads the link from the address
// bar, runs what it can and says the link was too long (web/src/app/params.ts linkNotice).
server.on('clientError', async (err, socket) => {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  if (err.code !== 'HPE_HEADER_OVERFLOW') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return;
  }
  let page;
  try {
    page = (await readFile(join(root, 'index.html'), 'utf8')).replace('<head>', '<head><base href="/">');
  } catch {
    page = '<!doctype html><title>Reclaim Lab</title><p>This link is too long for the server.</p>';
  }
  const bodyBytes = Buffer.from(page);
  const head = [
    'HTTP/1.1 431 Request Header Fields Too Large',
    `Content-Security-Policy: ${CSP}`,
    'X-Content-Type-Options: nosniff',
    'Referrer-Policy: no-referrer',
    'Content-Type: text/html; charset=utf-8',
    'Cache-Control: no-store',
    `Content-Length: ${bodyBytes.length}`,
    'Connection: close',
  ];
  if (socket.writable) socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), bodyBytes]));
});

await precompress();
server.listen(port, host, () => {
  console.log(`[web] serving ${root} on http://${host === '127.0.0.1' ? 'localhost' : host}:${port}/ (gzip, CSP; Ctrl-C stops)`);
});
