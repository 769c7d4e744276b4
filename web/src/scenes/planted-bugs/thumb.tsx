// SPDX-License-Identifier: GPL-2.0-only
// The landing view's drawing of the scene: project code with three planted
// bugs, and the reports KASAN and lockdep print for them.
export function PlantedBugsThumb() {
  return (
    <svg viewBox="0 0 200 110" role="img" aria-label="lines of code with three reports: KASAN, lockdep, sleeping in atomic">
      {[60, 110, 84, 130, 70, 96].map((w, i) => (
        <rect key={i} x={10 + (i % 2) * 8} y={8 + i * 8} width={w} height="4" rx="2" fill="#aab4be" />
      ))}
      {['KASAN: use-after-free', 'lockdep: circular locking', 'BUG: sleeping in atomic'].map((t, i) => (
        <g key={t}>
          <rect x="8" y={58 + i * 17} width="184" height="14" rx="3" fill="#fdecea" stroke="#c62828" />
          <text x="14" y={68 + i * 17} className="thumb-label">{t}</text>
        </g>
      ))}
    </svg>
  );
}
