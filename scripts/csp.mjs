// SPDX-License-Identifier: GPL-2.0-only
// The Content-Security-Policy of the built app, in one place: the server
// (scripts/serve.mjs) sends it as a header and the build (vite.config.ts)
// writes it into dist/index.html, so any static server that serves dist/
// applies it too. Everything comes from the page's own origin; no remote
// origin, no eval. WebAssembly compilation needs 'wasm-unsafe-eval' (not
// 'unsafe-eval', which would allow eval() and new Function()). Styles are
// the built stylesheet; React and d3 set inline styles through the CSSOM,
// which style-src does not govern. The favicon is an empty data: URL.
export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'worker-src': ["'self'"],
  'connect-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

export const CSP = Object.entries(CSP_DIRECTIVES)
  .map(([k, v]) => `${k} ${v.join(' ')}`)
  .join('; ');
