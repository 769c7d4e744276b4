/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: the kernel version of the variant being built. Kbuild
 * generates this file; here each variant passes LINUX_VERSION_CODE on the
 * command line (wasm/build.mk).
 */
#ifndef _LINUX_VERSION_H
#define _LINUX_VERSION_H
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#ifndef LINUX_VERSION_CODE
#error "LINUX_VERSION_CODE: every variant's build defines it"
#endif
#endif /* _LINUX_VERSION_H */
