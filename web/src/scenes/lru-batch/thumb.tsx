// SPDX-License-Identifier: GPL-2.0-only
// The landing view's drawing of the scene: the LRU list as a strip of pages,
// sentinels tall, inner pages short, coloured by the batch lock they belong to.
export function LruBatchThumb() {
  const colors = ['#3a7bbf', '#4c9a52', '#b5a22c', '#8e5bb5'];
  return (
    <svg viewBox="0 0 200 110" role="img" aria-label="an LRU list of pages in batches, sentinel pages taller, with a contention heat map">
      {Array.from({ length: 24 }, (_, i) => {
        const sentinel = i % 6 === 0;
        return (
          <rect key={i} x={6 + i * 7.9} y={sentinel ? 10 : 24} width="6" height={sentinel ? 34 : 20} fill={colors[Math.floor(i / 6)]} />
        );
      })}
      {Array.from({ length: 24 }, (_, i) => (
        <rect key={i} x={6 + i * 7.9} y="62" width="7.9" height="14" fill="#c62828" opacity={[0.1, 0.3, 0.6, 0.9, 0.5, 0.2][i % 6]} />
      ))}
      {Array.from({ length: 24 }, (_, i) => (
        <rect key={i} x={6 + i * 7.9} y="80" width="7.9" height="14" fill="#c62828" opacity={[0.05, 0.1, 0.2, 0.15, 0.1, 0.05][(i + 2) % 6]} />
      ))}
    </svg>
  );
}
