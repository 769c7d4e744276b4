// SPDX-License-Identifier: GPL-2.0-only
import { describe, expect, it } from 'vitest';
import { History } from '../../engine/history';
import { loadRun } from '../../engine/testing/fixtures';
import { EventKind } from '../../engine/generated/events';
import type { EventLog } from '../../engine/log';
import { sceneReducer, slabShare } from './model';

/** The step just before the unmount (kill_sb) tears everything down. */
function beforeKillSb(log: EventLog): number {
  for (let i = 0; i < log.length; i++) if (log.kind[i] === EventKind.CALL && log.name(log.arg(i, 0)) === 'kill_sb') return i - 1;
  throw new Error('no kill_sb');
}
import { program, rowProgram, ROWS } from './figures';

describe('inode-lru model on v6.12', () => {
  const log = loadRun('inode-lru', 1);
  const h = new History(log, sceneReducer);
  const end = h.at(log.length - 1);

  it('never sees an inode with page cache on the inode LRU, nor a rotation', () => {
    for (let k = 0; k < log.length; k += 7) {
      const s = h.at(k);
      for (const o of s.order) expect(s.inodes[o].pages).toBe(0);
    }
    expect(end.rotations).toBe(0);
  });

  it('puts streaming inodes on the LRU at __inode_add_lru() once their last page is gone, and frees them', () => {
    expect(end.putOn).toBeGreaterThan(0);
    expect(end.freed).toBeGreaterThan(0);
    let seen = false;
    for (let k = 0; k < log.length && !seen; k++) {
      const s = h.at(k);
      seen = s.last?.what === 'put-on' && s.last.step === k && s.last.func === '__inode_add_lru' && s.last.pages === 0;
    }
    expect(seen).toBe(true);
  });

  it('keeps an inode reclaim emptied off the LRU while it holds shadow entries, until the shadow-node shrinker frees them', () => {
    // an inode with no pages but shadows, off the LRU and alive, that later goes on it
    let waiting: number | null = null;
    let since = -1;
    for (let k = 0; k < log.length && waiting === null; k++) {
      const s = h.at(k);
      for (const r of Object.values(s.inodes))
        if (!r.workingset && r.pages === 0 && r.shadows > 0 && !r.onLru && !r.freed) {
          waiting = r.obj;
          since = k;
          break;
        }
    }
    expect(waiting).not.toBeNull();
    let on = -1;
    for (let k = since; k < log.length && on < 0; k++) if (h.at(k).inodes[waiting!].onLru) on = k;
    expect(on).toBeGreaterThan(since);
    // it went on only once its shadows were gone, and a shadow node was freed before that
    expect(h.at(on).inodes[waiting!].shadows).toBe(0);
    expect(h.at(on).shadowNodesFreed).toBeGreaterThan(0);
  });

  it('keeps the workingset off the LRU, and the share small', () => {
    const ws = Object.values(h.at(beforeKillSb(log)).inodes).filter((r) => r.workingset);
    expect(ws.length).toBe(12);
    for (const r of ws) expect(r.onLru).toBe(false);
    for (const r of ws) expect(r.pages).toBe(4);
    expect(slabShare(end)).toBeLessThan(5);
  });
});

describe('inode-lru model on inode-lru-before', () => {
  const log = loadRun('inode-lru-before', 1);
  const h = new History(log, sceneReducer);
  const end = h.at(log.length - 1);

  it('rotates workingset inodes with page cache, with LRU_ROTATE in inode_lru_isolate()', () => {
    expect(end.rotations).toBeGreaterThan(0);
    let rot = null;
    for (let k = 0; k < log.length && !rot; k++) {
      const s = h.at(k);
      if (s.last?.what === 'rotated' && s.last.step === k) rot = s.last;
    }
    expect(rot?.status).toBe('LRU_ROTATE');
    expect(rot?.func).toBe('inode_lru_isolate');
    expect(rot?.pages).toBeGreaterThan(0);
    const before = h.at(beforeKillSb(log));
    const ws = Object.values(before.inodes).filter((r) => r.workingset);
    expect(ws.length).toBe(12);
    for (const r of ws) expect(r.onLru).toBe(true);
  });

  it('spends more of reclaim in shrink_slab() than v6.12 does', () => {
    const v612 = new History(loadRun('inode-lru', 1), sceneReducer);
    const other = v612.at(v612.log.length - 1);
    expect(slabShare(end)).toBeGreaterThan(slabShare(other));
  });
});

describe('inode-lru figures', () => {
  it('encodes key/value records little-endian, and a row with auto scale', () => {
    expect(program([[4, 1_000_000]])).toEqual([4, 0x40, 0x42, 0x0f, 0]);
    const p = rowProgram(ROWS[4]);
    expect(p.length).toBe(30);
    expect(p.slice(0, 5)).toEqual([1, 0, 0, 0, 0]);
  });
});
