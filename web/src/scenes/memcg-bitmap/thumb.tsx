// SPDX-License-Identifier: GPL-2.0-only
// The landing view's drawing of the scene: each memcg's shrinker bits as a
// matrix, set bits filled, one just cleared outlined.
export function MemcgBitmapThumb() {
  const on = new Set(['0.1', '0.4', '1.0', '1.5', '2.2', '2.3', '3.6', '4.1', '4.7']);
  return (
    <svg viewBox="0 0 200 110" role="img" aria-label="a matrix of memcgs by shrinkers, with the set bits filled">
      {Array.from({ length: 5 }, (_, r) => (
        <g key={r}>
          <text x="4" y={24 + r * 18} className="thumb-label">memcg {r}</text>
          {Array.from({ length: 8 }, (_, c) => (
            <rect
              key={c}
              x={58 + c * 17}
              y={12 + r * 18}
              width="14"
              height="14"
              rx="2"
              fill={on.has(`${r}.${c}`) ? '#3a7bbf' : '#fff'}
              stroke={r === 3 && c === 2 ? '#c62828' : '#8894a0'}
              strokeWidth={r === 3 && c === 2 ? 2 : 1}
            />
          ))}
        </g>
      ))}
    </svg>
  );
}
