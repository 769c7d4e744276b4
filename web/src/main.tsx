// SPDX-License-Identifier: GPL-2.0-only
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { Landing } from './app/Landing';
import './app/styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* The bare URL is the landing view; any parameter opens a scene (or a lesson, a talk, an embed). */}
    {window.location.search.length > 1 ? <App /> : <Landing />}
  </StrictMode>,
);
