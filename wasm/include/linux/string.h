/* SPDX-License-Identifier: GPL-2.0-only */
/* Customised: the C library's string functions serve the kernel's. */
#ifndef _LINUX_STRING_H_
#define _LINUX_STRING_H_

#include <linux/types.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
char *strchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
int strncmp(const char *a, const char *b, size_t n);
size_t strcspn(const char *s, const char *reject);
/* lib/string.c's, extracted in the selftest variant (wasm/extract/selftest-string.txt) */
int strncasecmp(const char *s1, const char *s2, size_t len);
char *strnchrnul(const char *s, size_t count, int c);
/* mm/util.c's: wasm/glue/uaccess.c */
char *memdup_user_nul(const void __user *src, size_t len);

#endif /* _LINUX_STRING_H_ */
