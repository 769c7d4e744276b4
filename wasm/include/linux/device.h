/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stubbed: there are no devices in the simulation. lib/bitmap.c's
 * devm_bitmap_alloc() links against devm_add_action_or_reset(), which
 * here fails as the kernel's does when it cannot record the action: it
 * runs the action at once and returns -ENOMEM.
 */
#ifndef _DEVICE_H_
#define _DEVICE_H_

#include <linux/errno.h>

struct device;

static inline int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data)
{
	action(data);
	return -ENOMEM;
}

#endif /* _DEVICE_H_ */
