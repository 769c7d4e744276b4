// SPDX-License-Identifier: GPL-2.0-only
// The landing view's drawing of the scene: the inode LRU above the file LRU
// lists, inodes holding page cache pages, one rotated back to the tail.
export function InodeLruThumb() {
  return (
    <svg viewBox="0 0 200 110" role="img" aria-label="the inode LRU above the active and inactive file LRU lists">
      <text x="4" y="14" className="thumb-label">inode LRU</text>
      {Array.from({ length: 6 }, (_, i) => (
        <g key={i}>
          <rect x={8 + i * 30} y="20" width="24" height="20" rx="3" fill="#fff" stroke="#3a7bbf" />
          {Array.from({ length: i % 3 }, (_, k) => (
            <rect key={k} x={12 + i * 30 + k * 7} y="26" width="5" height="8" fill="#4c9a52" />
          ))}
        </g>
      ))}
      <path d="M176,44 q-80,14 -160,0" fill="none" stroke="#b5a22c" strokeWidth="2" />
      <text x="4" y="66" className="thumb-label">active</text>
      {Array.from({ length: 14 }, (_, i) => (
        <rect key={i} x={46 + i * 10} y="57" width="8" height="10" fill="#4c9a52" />
      ))}
      <text x="4" y="90" className="thumb-label">inactive</text>
      {Array.from({ length: 14 }, (_, i) => (
        <rect key={i} x={46 + i * 10} y="81" width="8" height="10" fill={i > 8 ? '#d9534f' : '#9ccc9f'} />
      ))}
    </svg>
  );
}
