/* SPDX-License-Identifier: GPL-2.0-only */
/* Duplicated from the kernel (include/uapi/asm-generic/errno-base.h, errno.h). */
#ifndef _LINUX_ERRNO_H
#define _LINUX_ERRNO_H

#define EPERM		 1
#define ENOENT		 2
#define EINTR		 4
#define EIO		 5
#define E2BIG		 7
#define EAGAIN		11
#define ENOMEM		12
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define EINVAL		22
#define ENOSPC		28
#define ERANGE		34
#define ENOSYS		38
#define EOVERFLOW	75

#endif /* _LINUX_ERRNO_H */
