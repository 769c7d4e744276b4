/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel (include/linux/notifier.h, 6.12): the notifier block. */
#ifndef _LINUX_NOTIFIER_H
#define _LINUX_NOTIFIER_H

struct notifier_block;
typedef int (*notifier_fn_t)(struct notifier_block *nb, unsigned long action, void *data);

struct notifier_block {
	notifier_fn_t notifier_call;
	struct notifier_block *next;
	int priority;
};

#define NOTIFY_DONE		0x0000

#endif /* _LINUX_NOTIFIER_H */
