/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel: arch errno values are the generic ones. */
#include <linux/errno.h>
