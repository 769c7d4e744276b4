// SPDX-License-Identifier: GPL-2.0-only
// The landing view's drawing of the scene: reclaimers and mount/unmount tasks
// on four CPUs, the give-ups marked, and the three kernels side by side.
export function ShrinkerChurnThumb() {
  const lanes = [
    ['#4c9a52', [[30, 40], [80, 30], [130, 50]]],
    ['#3a7bbf', [[36, 30], [90, 44], [150, 30]]],
    ['#d9534f', [[30, 60], [110, 50]]],
    ['#b5a22c', [[60, 40], [120, 56]]],
  ] as const;
  return (
    <svg viewBox="0 0 200 110" role="img" aria-label="four CPU lanes with failed trylocks marked, on v6.1, the SRCU series and v6.12">
      {lanes.map(([c, segs], i) => (
        <g key={i}>
          <text x="4" y={18 + i * 18} className="thumb-label">CPU{i}</text>
          {segs.map(([x, w]) => (
            <rect key={x} x={x} y={8 + i * 18} width={w} height="12" fill={c} />
          ))}
        </g>
      ))}
      {[58, 96, 142].map((x) => (
        <path key={x} d={`M${x - 4},2h8l-4,6z`} fill="#c62828" />
      ))}
      {['v6.1', 'srcu', 'v6.12'].map((k, i) => (
        <g key={k}>
          <rect x={30 + i * 58} y="84" width="52" height="18" rx="9" fill="#fff" stroke="#8894a0" />
          <text x={56 + i * 58} y="97" textAnchor="middle" className="thumb-label">{k}</text>
        </g>
      ))}
    </svg>
  );
}
