/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Customised: module parameters (include/linux/moduleparam.h). There is
 * no insmod command line: each module_param() registers its parameter,
 * when the program starts, with the runtime's list
 * (wasm/glue/kthread.c), and a scenario sets it by name and text value
 * as insmod does, through the parameter's kernel_param_ops ->set()
 * (int, bool and charp: the project's parsing of what kernel/params.c
 * accepts for them). A charp parameter points at the scenario's string.
 * A parameter belongs to the module of the file that declares it (its
 * __FILE__, the kernel's file for extracted code: kernel/torture.c is
 * module torture), so two modules may have parameters of one name.
 */
#ifndef _LINUX_MODULEPARAM_H
#define _LINUX_MODULEPARAM_H

#include <linux/types.h>

struct kernel_param;

struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
};

struct kernel_param {
	const char *name;
	const char *file;	/* the declaring file: its base name is the module */
	const struct kernel_param_ops *ops;
	void *arg;
	struct kernel_param *next;	/* the runtime's list */
};

extern const struct kernel_param_ops param_ops_int;
extern const struct kernel_param_ops param_ops_bool;
extern const struct kernel_param_ops param_ops_charp;

void sim_module_param_register(struct kernel_param *kp);
/* insmod <mod> name=value: 0, or the error ->set() returned (-ENOENT: no such parameter) */
int sim_module_param_set(const char *mod, const char *name, const char *val);
/* insmod <mod> name=value name=value ...: 0, or the first error (each printed) */
int sim_module_params_set(const char *mod, const char *args);

#define module_param_cb(name, _ops, _arg, perm)					\
	static struct kernel_param __param_##name = { #name, __FILE__, _ops, _arg, NULL };	\
	__attribute__((constructor)) static void __param_register_##name(void)	\
	{										\
		sim_module_param_register(&__param_##name);				\
	}
#define module_param(name, type, perm)	module_param_cb(name, &param_ops_##type, &name, perm)
#define MODULE_PARM_DESC(_parm, desc)

#endif /* _LINUX_MODULEPARAM_H */
