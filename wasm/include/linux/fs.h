/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the part of <linux/fs.h> (v6.12) that the inode LRU code of
 * fs/inode.c reads. struct inode, struct address_space and struct
 * super_block hold only the fields that code touches; the i_state bits and
 * SB_ACTIVE are duplicated from v6.12 include/linux/fs.h (keep in sync),
 * and generic_drop_inode()/inode_unhashed() are copied as they are there.
 * The page cache behind i_data is the real XArray (lib/xarray.c).
 */
#ifndef _LINUX_FS_H
#define _LINUX_FS_H

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/list_lru.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/xarray.h>
#include <linux/lockdep.h>
#include <sim.h>

/* v6.12 include/linux/fs.h:2497-2522 */
#define __I_NEW			0
#define I_NEW			(1 << __I_NEW)
#define __I_SYNC		1
#define I_SYNC			(1 << __I_SYNC)
#define __I_LRU_ISOLATING	2
#define I_LRU_ISOLATING		(1 << __I_LRU_ISOLATING)
#define I_DIRTY_SYNC		(1 << 3)
#define I_DIRTY_DATASYNC	(1 << 4)
#define I_DIRTY_PAGES		(1 << 5)
#define I_WILL_FREE		(1 << 6)
#define I_FREEING		(1 << 7)
#define I_CLEAR			(1 << 8)
#define I_REFERENCED		(1 << 9)
#define I_DIRTY_TIME		(1 << 11)
#define I_DONTCACHE		(1 << 15)
#define I_DIRTY_INODE (I_DIRTY_SYNC | I_DIRTY_DATASYNC)
#define I_DIRTY (I_DIRTY_INODE | I_DIRTY_PAGES)
#define I_DIRTY_ALL (I_DIRTY | I_DIRTY_TIME)

/* v6.12 include/linux/fs.h:1241 */
#define SB_ACTIVE	BIT(30)

struct inode;
struct folio;

struct folio;

/* What reclaim calls of a mapping's operations (mm/vmscan.c) */
/* What reclaim, truncation and invalidation call of a mapping's operations (mm/vmscan.c, mm/truncate.c, mm/filemap.c) */
struct address_space_operations {
	bool (*release_folio)(struct folio *, gfp_t);
	void (*invalidate_folio)(struct folio *, size_t offset, size_t len);
	void (*free_folio)(struct folio *folio);
	void (*is_dirty_writeback)(struct folio *, bool *dirty, bool *wb);
};

struct address_space {
	struct inode		*host;
	const struct address_space_operations *a_ops;
	struct xarray		i_pages;
	unsigned long		nrpages;
	unsigned long		flags;		/* AS_* bits (include/linux/pagemap.h) */
	struct list_head	i_private_list;	/* empty: no buffer heads (clear_inode() checks) */
};

struct super_operations {
	int (*drop_inode)(struct inode *);
};

struct super_block {
	unsigned long			s_flags;
	const struct super_operations	*s_op;
	struct list_lru			s_inode_lru;
	struct shrinker			*s_shrink;
};

struct inode {
	unsigned long		i_ino;
	unsigned int		i_nlink;
	struct super_block	*i_sb;
	spinlock_t		i_lock;
	unsigned long		i_state;
	atomic_t		i_count;
	struct hlist_node	i_hash;
	struct list_head	i_lru;
	struct list_head	i_wb_list;	/* empty: no writeback (clear_inode() checks) */
	struct address_space	i_data;
	struct address_space	*i_mapping;
};

/* v6.12 include/linux/fs.h:806 */
static inline int inode_unhashed(struct inode *inode)
{
	return hlist_unhashed(&inode->i_hash);
}

/* v6.12 include/linux/fs.h:3190 */
static inline int generic_drop_inode(struct inode *inode)
{
	return !inode->i_nlink || inode_unhashed(inode);
}

/* Stubbed: no task waits on an inode's state bits in these scenarios. */
static inline void inode_wake_up_bit(struct inode *inode, u32 bit) { }

/*
 * Customised: lib/dec_and_lock.c's atomic_dec_and_lock(), in the shim's
 * atomics and spinlock, so that each step is recorded at the caller's line.
 */
#define atomic_dec_and_lock(cnt, lock) ({				\
	int __dl_ret = 0;						\
	int __dl_old = atomic_read(cnt);				\
	while (__dl_old > 1) {						\
		int __dl_seen = atomic_cmpxchg(cnt, __dl_old, __dl_old - 1); \
		if (__dl_seen == __dl_old)				\
			break;						\
		__dl_old = __dl_seen;					\
	}								\
	if (__dl_old <= 1) {						\
		spin_lock(lock);					\
		if (atomic_add_return(-1, cnt) == 0)			\
			__dl_ret = 1;					\
		else							\
			spin_unlock(lock);				\
	}								\
	__dl_ret; })

/* include/linux/fs.h (v6.12), as it is there */
static inline void __iget(struct inode *inode)
{
	atomic_inc(&inode->i_count);
}

void iput(struct inode *inode);
struct inode *igrab(struct inode *inode);
void inode_add_lru(struct inode *inode);
long prune_icache_sb(struct super_block *sb, struct shrink_control *sc);

#endif /* _LINUX_FS_H */
