/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: there is no debugfs in the simulation (CONFIG_DEBUG_FS=n). */
#ifndef _DEBUGFS_H_
#define _DEBUGFS_H_

struct dentry;

static inline void debugfs_remove_recursive(struct dentry *dentry)
{
}

#endif /* _DEBUGFS_H_ */
