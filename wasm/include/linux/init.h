/* SPDX-License-Identifier: GPL-2.0-only */
/* Stubbed: nothing is discarded after boot in the simulation. */
#ifndef _LINUX_INIT_H
#define _LINUX_INIT_H
#define __init
#define __exit
#define __initdata
#define __initconst
#endif
