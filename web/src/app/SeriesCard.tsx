// SPDX-License-Identifier: GPL-2.0-only
// The patch series behind a scene, from kernel-tree/manifest.json.
import { findSeries, loreUrl } from './manifest';

export function SeriesCard({ seriesId }: { seriesId: string | null }) {
  const s = seriesId ? findSeries(seriesId) : undefined;
  if (!s) return null;
  const fate =
    s.fate.status === 'merged'
      ? `merged in ${s.fate.release}`
      : s.fate.status === 'reverted'
        ? `merged for ${s.fate.release}, then reverted`
        : 'never merged';
  return (
    <div className="series-card" data-testid="series.card">
      <div>
        <a href={loreUrl(s.cover)} target="_blank" rel="noreferrer">
          “{s.title}”
        </a>{' '}
        — {s.author}, {s.version}, posted {s.posted} ({fate})
      </div>
      <div className="muted">
        Code shown: {s.code.kind === 'upstream' ? `upstream, branch ${s.code.branch}` : `project port on branch ${s.code.branch}`} of kernel-tree/linux
      </div>
    </div>
  );
}
