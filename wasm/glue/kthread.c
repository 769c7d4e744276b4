// SPDX-License-Identifier: GPL-2.0-only
/*
 * Project code: kthreads, schedule_timeout() and module parameters on the
 * simulated machine, for the kernel's torture tests (kernel/torture.c,
 * kernel/locking/locktorture.c).
 *
 * A kthread is a simulated task. As in kernel/kthread.c, the new thread
 * tells its creator it exists and sleeps in TASK_UNINTERRUPTIBLE until
 * the creator's wake_up_process(); kthread_stop() sets the thread's stop
 * flag, wakes it, and waits on its exit completion for the value its
 * function returned. Kthreads start on the CPUs in turn (the kernel's
 * placement is the scheduler's; here a task stays on its CPU).
 */
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/moduleparam.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/stdarg.h>

struct kthread {
	int (*threadfn)(void *data);
	void *data;
	struct completion created;
	struct completion exited;
	int result;
	bool should_stop;
	char comm[TASK_COMM_LEN];
};

static int kthread_next_cpu;

/* kernel/kthread.c's kthread(): on the new task */
static void kthread_entry(void *arg)
{
	struct kthread *self = arg;

	current->kthread = self;
	__set_current_state(TASK_UNINTERRUPTIBLE);
	complete(&self->created);
	schedule();
	if (!READ_ONCE(self->should_stop))
		self->result = self->threadfn(self->data);
	else
		self->result = -EINTR;
	complete(&self->exited);
}

struct task_struct *kthread_create(int (*threadfn)(void *data), void *data,
				   const char namefmt[], ...)
{
	struct kthread *k = kzalloc(sizeof(*k), GFP_KERNEL);
	va_list args;
	int task;

	if (!k)
		return ERR_PTR(-ENOMEM);
	k->threadfn = threadfn;
	k->data = data;
	init_completion(&k->created);
	init_completion(&k->exited);
	va_start(args, namefmt);
	vsnprintf(k->comm, sizeof(k->comm), namefmt, args);
	va_end(args);
	task = sim_spawn(kthread_next_cpu, k->comm, kthread_entry, k);
	if (task < 0) {
		kfree(k);
		return ERR_PTR(-EAGAIN);
	}
	kthread_next_cpu = (kthread_next_cpu + 1) % sim_nr_cpus();
	wait_for_completion(&k->created);
	return sim_task_struct(task);
}

bool kthread_should_stop(void)
{
	struct kthread *self = current->kthread;

	return self && READ_ONCE(self->should_stop);
}

int kthread_stop(struct task_struct *k)
{
	struct kthread *kt = k->kthread;
	int ret;

	WRITE_ONCE(kt->should_stop, true);
	wake_up_process(k);
	wait_for_completion(&kt->exited);
	ret = kt->result;
	k->kthread = NULL;
	kfree(kt);
	return ret;
}

/* kernel/time/sleep_timeout.c: returns the jiffies left, 0 if the timer expired */
long sim_kernel_schedule_timeout(long timeout, const struct sim_site *site)
{
	sim_u64 left;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		sim_schedule(site);
		return timeout;
	}
	if (timeout < 0) {
		WARN(1, "schedule_timeout: wrong timeout value %lx\n", timeout);
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	left = sim_schedule_timeout(jiffies_to_nsecs(timeout), site);
	return (long)((left + TICK_NSEC - 1) / TICK_NSEC);
}

void sched_set_fifo(struct task_struct *p)
{
	p->policy = SCHED_FIFO;
}

void sched_set_normal(struct task_struct *p, int nice)
{
	p->policy = SCHED_NORMAL;
}

/* ---- module parameters (linux/moduleparam.h) ---------------------------- */

static struct kernel_param *module_params;

void sim_module_param_register(struct kernel_param *kp)
{
	kp->next = module_params;
	module_params = kp;
}

/* Is kp a parameter of module mod: is mod the base name of its file, without ".c"? */
static bool module_param_of(const struct kernel_param *kp, const char *mod)
{
	const char *p, *base = kp->file;
	size_t n = strlen(mod);

	for (p = kp->file; *p; p++)
		if (*p == '/')
			base = p + 1;
	return !strncmp(base, mod, n) && !strcmp(base + n, ".c");
}

int sim_module_param_set(const char *mod, const char *name, const char *val)
{
	struct kernel_param *kp;

	for (kp = module_params; kp; kp = kp->next)
		if (!strcmp(kp->name, name) && module_param_of(kp, mod))
			return kp->ops->set(val, kp);
	return -ENOENT;
}

/*
 * insmod <mod> <args>: each "name=value" of args, separated by spaces, set
 * as sim_module_param_set() sets it; a parameter refused is printed and
 * the rest are still set, as insmod's command line is parsed
 * (parse_args() stops at the first error; a test here is better told
 * about each one). A charp parameter points into a copy of args kept
 * until the next call. Returns the first error, or 0.
 */
int sim_module_params_set(const char *mod, const char *args)
{
	static char buf[256];
	char *name, *eq, *end;
	int ret, first = 0;

	if (strlen(args) >= sizeof(buf)) {
		printk("%s: module parameters too long: %s\n", mod, args);
		return -E2BIG;
	}
	memcpy(buf, args, strlen(args) + 1);
	for (name = buf; *name; name = end) {
		while (*name == ' ')
			name++;
		end = name + strcspn(name, " ");
		if (*end)
			*end++ = 0;
		if (!*name)
			continue;
		eq = strchr(name, '=');
		if (!eq) {
			printk("%s: parameter '%s' has no value\n", mod, name);
			first = first ? first : -EINVAL;
			continue;
		}
		*eq = 0;
		ret = sim_module_param_set(mod, name, eq + 1);
		if (ret) {
			printk("%s: unknown parameter '%s' ignored (%d)\n", mod, name, ret);
			first = first ? first : ret;
		}
	}
	return first;
}

/* A decimal int, as kstrtoint(val, 0, ...) takes one written in decimal. */
static int param_set_int(const char *val, const struct kernel_param *kp)
{
	long long v = 0;
	int neg = *val == '-';

	if (neg || *val == '+')
		val++;
	if (!*val)
		return -EINVAL;
	for (; *val; val++) {
		if (*val < '0' || *val > '9')
			return -EINVAL;
		v = v * 10 + (*val - '0');
		if (v > (long long)INT_MAX + 1)
			return -ERANGE;
	}
	v = neg ? -v : v;
	if (v > INT_MAX)
		return -ERANGE;
	*(int *)kp->arg = (int)v;
	return 0;
}

/* kstrtobool()'s first letters: y/Y/1/on and n/N/0/off */
static int param_set_bool(const char *val, const struct kernel_param *kp)
{
	if (!strcmp(val, "1") || !strcmp(val, "y") || !strcmp(val, "Y") || !strcmp(val, "on"))
		*(bool *)kp->arg = true;
	else if (!strcmp(val, "0") || !strcmp(val, "n") || !strcmp(val, "N") || !strcmp(val, "off"))
		*(bool *)kp->arg = false;
	else
		return -EINVAL;
	return 0;
}

static int param_set_charp(const char *val, const struct kernel_param *kp)
{
	*(const char **)kp->arg = val;
	return 0;
}

const struct kernel_param_ops param_ops_int = { .set = param_set_int };
const struct kernel_param_ops param_ops_bool = { .set = param_set_bool };
const struct kernel_param_ops param_ops_charp = { .set = param_set_charp };
