// SPDX-License-Identifier: GPL-2.0-only
// The page's own code, loaded by main.tsx once the simulation worker is starting.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
// The shared styles first: each component's and scene's own sheet, imported
// beside its code, comes after them and refines them.
import './styles.css';
import { App } from './App';
import { Landing } from './Landing';
import { TraceImport } from './TraceImport';
import { isImportView, readUrl } from './params';
import { linkOf, pageSearch, replaceAddress } from './url';
import { startFirstRun } from './useRuns';
import { dropSharedClient } from '../engine/client';

/** The page at a permalink; a talk opens another in place (a slide of another scene) and the page starts over at it (the address bar gets it as a link). */
function Page() {
  const [open, setOpen] = useState({ search: pageSearch(), n: 0 });
  const navigate = (search: string) => {
    replaceAddress(linkOf(search));
    setOpen((o) => ({ search, n: o.n + 1 }));
  };
  return <App key={open.n} search={open.search} navigate={navigate} />;
}

// A scene's run is asked for before React mounts, so that it is simulated while the page draws (a talk's slides
// choose their own runs).
// main.tsx started the worker for any parameter; the trace page (isImportView) runs nothing, so it is stopped.
const search = pageSearch();
if (isImportView(search)) dropSharedClient();
else if (search.length > 1) {
  const { settings } = readUrl(search);
  if (!settings.talk) startFirstRun(settings.scene, settings);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* The bare URL is the landing view; ?import the reclaim trace page; any other parameter opens a scene (or a lesson, a talk, an embed). */}
    {isImportView(search) ? <TraceImport search={search} /> : search.length > 1 ? <Page /> : <Landing />}
  </StrictMode>,
);
