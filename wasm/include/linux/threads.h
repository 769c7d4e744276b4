/* SPDX-License-Identifier: GPL-2.0-only */
/* Customised: NR_CPUS is the runtime's SIM_MAX_CPUS (wasm/runtime/runtime.h). */
#ifndef _LINUX_THREADS_H
#define _LINUX_THREADS_H

#define NR_CPUS		64

#endif /* _LINUX_THREADS_H */
