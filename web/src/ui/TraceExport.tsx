// SPDX-License-Identifier: GPL-2.0-only
// The run as a trace for Perfetto (engine/perfetto.ts): "Download trace"
// saves the JSON, offline included; "Open in Perfetto" opens the Perfetto UI
// in a new window, only when clicked, and hands it the trace through its
// documented postMessage handshake ("Deep linking to the Perfetto UI",
// perfetto.dev/docs/visualization/deep-linking-to-perfetto-ui): post 'PING'
// until the window answers 'PONG', then post {perfetto: {buffer, title,
// fileName}}. Nothing else reaches the network. A window that has not
// answered within a few seconds (offline, or a network too slow for the
// Perfetto UI) is said so, with the trace to download instead; the page
// keeps asking it for a minute, in case it loads after all.
import { useEffect, useRef, useState } from 'react';
import type { EventLog } from '../engine/log';
import type { Labels } from '../engine/narrate';
import { traceJson } from '../engine/perfetto';
import './TraceExport.css';

export const PERFETTO_ORIGIN = 'https://ui.perfetto.dev';
const PING_MS = 100;
/** When a window that has not answered is said so, and the download offered. */
export const ANSWER_MS = 4000;
const GIVE_UP_MS = 60_000;

interface Props {
  log: EventLog;
  labels: Labels;
  /** The file's name, e.g. reclaim-lab-shrinker-lifetime-v6.12-seed7.json */
  fileName: string;
  /** What Perfetto shows as the trace's title. */
  title: string;
}

export function TraceExport({ log, labels, fileName, title }: Props) {
  const [status, setStatus] = useState('');
  /** Perfetto has not answered: the status offers the download beside it. */
  const [offer, setOffer] = useState(false);
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);
  useEffect(() => {
    setStatus('');
    setOffer(false);
  }, [log]);

  const text = () => traceJson(log, { title }, labels);

  const download = () => {
    const url = URL.createObjectURL(new Blob([text()], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    stop.current?.();
    setOffer(false);
    setStatus(`Saved ${fileName}: open it in Perfetto (ui.perfetto.dev) or chrome://tracing.`);
  };

  const open = () => {
    stop.current?.();
    const win = window.open(`${PERFETTO_ORIGIN}/#!/`);
    if (!win) {
      setStatus('The browser blocked the new window: allow pop-ups for this page, or download the trace.');
      return;
    }
    const buffer = new TextEncoder().encode(text()).buffer;
    setOffer(false);
    setStatus('Waiting for Perfetto to open…');
    const onMessage = (e: MessageEvent) => {
      if (e.source !== win || e.origin !== PERFETTO_ORIGIN || e.data !== 'PONG') return;
      finish();
      win.postMessage({ perfetto: { buffer, title, fileName } }, PERFETTO_ORIGIN, [buffer]);
      setOffer(false);
      setStatus(`Sent to Perfetto: ${title}.`);
    };
    const ping = setInterval(() => {
      if (win.closed) {
        finish();
        setOffer(true);
        setStatus('The Perfetto window was closed before it answered:');
        return;
      }
      win.postMessage('PING', PERFETTO_ORIGIN);
    }, PING_MS);
    // Within a few seconds: no answer yet is said so, and the file offered; the window is still asked.
    const slow = setTimeout(() => {
      setOffer(true);
      setStatus(`Perfetto has not answered in ${ANSWER_MS / 1000} s (offline, or its page still loading): the trace is sent if it does;`);
    }, ANSWER_MS);
    const giveUp = setTimeout(() => {
      finish();
      setOffer(true);
      setStatus(`Perfetto did not answer in ${GIVE_UP_MS / 1000} s (offline?):`);
    }, GIVE_UP_MS);
    const finish = () => {
      clearInterval(ping);
      clearTimeout(slow);
      clearTimeout(giveUp);
      window.removeEventListener('message', onMessage);
      stop.current = null;
    };
    window.addEventListener('message', onMessage);
    stop.current = finish;
  };

  return (
    <div className="trace-export" role="group" aria-label="Export the run as a trace" data-testid="trace">
      <button type="button" onClick={download} title="The whole run as Chrome trace-event JSON, for Perfetto" data-testid="trace.download">
        Download trace
      </button>
      <button type="button" onClick={open} title="Opens ui.perfetto.dev in a new window and hands it this run" data-testid="trace.perfetto">
        Open in Perfetto
      </button>
      <span className="trace-status" role="status" data-testid="trace.status">
        {status}
        {offer && (
          <>
            {' '}
            <button type="button" className="link" onClick={download} data-testid="trace.offer">
              download {fileName}
            </button>{' '}
            and open it in ui.perfetto.dev or chrome://tracing.
          </>
        )}
      </span>
    </div>
  );
}
