// SPDX-License-Identifier: GPL-2.0-only
// The landing view's drawing of the scene: kswapd walking shrinkers under RCU on
// CPU0 while CPU1 frees one, the grace periods below, a refcount falling to zero.
export function ShrinkerLifetimeThumb() {
  return (
    <svg viewBox="0 0 200 110" role="img" aria-label="two CPU lanes, RCU read-side sections, grace periods and a shrinker's refcount">
      <text x="4" y="20" className="thumb-label">CPU0</text>
      <rect x="34" y="10" width="60" height="14" fill="#4c9a52" />
      <rect x="98" y="10" width="46" height="14" fill="#4c9a52" />
      <rect x="34" y="26" width="40" height="3" fill="#2e7d32" />
      <rect x="104" y="26" width="30" height="3" fill="#2e7d32" />
      <text x="4" y="48" className="thumb-label">CPU1</text>
      <rect x="40" y="38" width="36" height="14" fill="#d9534f" />
      <rect x="80" y="38" width="24" height="14" fill="#b5a22c" />
      <rect x="108" y="38" width="40" height="14" fill="#d9534f" />
      <text x="4" y="74" className="thumb-label">RCU</text>
      <rect x="46" y="64" width="44" height="7" fill="#8e5bb5" />
      <rect x="110" y="72" width="40" height="7" fill="#8e5bb5" />
      <rect x="154" y="10" width="42" height="40" rx="4" fill="#fff" stroke="#8894a0" />
      <text x="175" y="24" textAnchor="middle" className="thumb-label">refcount</text>
      <text x="175" y="44" textAnchor="middle" className="thumb-big">0</text>
      <line x1="30" y1="96" x2="196" y2="96" stroke="#8894a0" />
    </svg>
  );
}
