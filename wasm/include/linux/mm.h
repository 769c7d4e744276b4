/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the little of <linux/mm.h> the files use. There are no struct
 * pages: virt_to_page() keeps the address and page_to_nid() asks the
 * simulator which node the object was allocated on.
 */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/gfp.h>
#include <linux/nodemask.h>
#include <linux/atomic.h>	/* the real header brings it in on the way */
#include <sim.h>

/* fs/libfs.c's (include/linux/fs.h), which the kernel's mm.h brings in: lib/bitmap-str.c uses it */
ssize_t memory_read_from_buffer(void *to, size_t count, loff_t *ppos,
				const void *from, size_t available);

struct page;
#define virt_to_page(addr)	((struct page *)(addr))
#define page_to_nid(page)	sim_obj_node(page)

/*
 * The vm event counters (/proc/vmstat's pgactivate...): not kept. A
 * kernel with the folio LRU (SIM_FOLIO_LRU) has the real list of them.
 */
#ifdef SIM_FOLIO_LRU
#include <linux/vm_event_item.h>
#else
enum vm_event_item { SLABS_SCANNED, NR_VM_EVENT_ITEMS };
#endif
#define count_vm_events(item, delta)	do { (void)(delta); } while (0)
#define count_vm_event(item)		do { } while (0)

#endif /* _LINUX_MM_H */
