// SPDX-License-Identifier: GPL-2.0-only
// The patch series behind a scene, from kernel-tree/manifest.json.
import { findSeries, loreUrl } from '../engine/manifest';
import { branchProvenance } from '../ui/CodePane';
import './SeriesCard.css';

/**
 * branch: the branch of kernel-tree/linux the running kernel's lines come
 * from (null while it runs); beside: the compared kernel this card is for.
 */
export function SeriesCard({ seriesId, branch, beside }: { seriesId: string | null; branch: string | null; beside?: string }) {
  const s = seriesId ? findSeries(seriesId) : undefined;
  if (!s) return null;
  const fate =
    s.fate.status === 'merged'
      ? `merged in ${s.fate.release}`
      : s.fate.status === 'reverted'
        ? `merged for ${s.fate.release}, then reverted`
        : 'never merged';
  return (
    <div className="series-card" data-testid={beside ? 'series.card.beside' : 'series.card'}>
      <div>
        {beside && <span className="muted">Beside it ({beside}): </span>}
        <a href={loreUrl(s.cover)} target="_blank" rel="noreferrer">
          “{s.title}”
        </a>{' '}
        — {s.author}, {s.version}, posted {s.posted} ({fate})
      </div>
      {branch && (
        <div className="muted" data-testid="series.code">
          Code shown: {branchProvenance(branch)} of kernel-tree/linux
        </div>
      )}
    </div>
  );
}
