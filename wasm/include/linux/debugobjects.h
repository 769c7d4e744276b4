/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: no debug objects (CONFIG_DEBUG_OBJECTS off); linux/torture.h includes it. */
#ifndef _LINUX_DEBUGOBJECTS_H
#define _LINUX_DEBUGOBJECTS_H
#endif /* _LINUX_DEBUGOBJECTS_H */
