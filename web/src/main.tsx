// SPDX-License-Identifier: GPL-2.0-only
// The page's first script: a scene's simulation worker starts here, from a
// small chunk, so that its script and the wasm runtime load while the page's
// own code (app/start.tsx, most of the bundle) is fetched, parsed and run;
// the scene's run is asked for there, before React mounts.
import { askedWordSize, firstOf, pageSearch, readLink } from './app/url';
import { sharedClient } from './engine/client';
import { setPageWordSize } from './engine/wordsize';
import { SCENE_KERNELS } from './scenes/kernels';

const search = pageSearch();
const link = readLink(search);
// The machine's word size, before any module is asked for (app/params.ts says what is wrong with a bad bits=).
setPageWordSize(askedWordSize(link));
// The bare URL is the landing view, which runs nothing.
if (search.length > 1) {
  const client = sharedClient();
  // A scene's permalink: its kernel's module is fetched and compiled in the worker meanwhile, so that the run's boot
  // waits for an instance alone. Lessons and talks choose their own kernels; a bad name is for the page to report.
  const scene = firstOf(link, 'scene');
  const variant = firstOf(link, 'variant') ?? (scene !== null ? SCENE_KERNELS[scene]?.[0] : undefined);
  if (variant && !['lesson', 'talk', 'deck', 'import'].some((p) => link.has(p))) client.prepare(variant).catch(() => {});
}
void import('./app/start');
