// SPDX-License-Identifier: GPL-2.0-only
// The page's first script: a scene's simulation worker starts here, from a
// small chunk, so that its script and the wasm runtime load while the page's
// own code (app/start.tsx, most of the bundle) is fetched, parsed and run;
// the scene's run is asked for there, before React mounts.
import { sharedClient } from './engine/client';

// The bare URL is the landing view, which runs nothing.
if (window.location.search.length > 1) sharedClient();
void import('./app/start');
