// SPDX-License-Identifier: GPL-2.0-only
/*
 * Natively: each execution in a child of a fork server (the builds with
 * AddressSanitizer, labrun --fork), or in this process where the machine
 * has its own heap (exec_inprocess.c).
 */
#ifndef __EMSCRIPTEN__
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "xp.h"
#include "../runtime/fiber.h"

/*
 * The fork server: a process forked when the search starts, before it
 * holds any work items, which forks one child per run. A fork copies the
 * page tables of the process forked, so forking the search itself costs
 * more with every work item it keeps; the server stays as small as at
 * the start. The search writes the run's request into the shared block
 * and a byte into cmd; the server answers with the child's wait status on
 * ret.
 */
static struct {
	pid_t pid;
	int cmd, ret;
} srv = { -1, -1, -1 };

static void server_loop(struct xp *x, int cmd, int ret)
{
	char c;

	while (read(cmd, &c, 1) == 1) {
		pid_t pid;
		int st = -1;

		fflush(NULL);
		pid = fork();
		if (pid == 0)
			_exit(xp_run_body(x));
		if (pid < 0)
			perror("explore: fork");
		else if (waitpid(pid, &st, 0) < 0)
			perror("explore: waitpid"), st = -1;
		if (write(ret, &st, sizeof(st)) != sizeof(st))
			break;
	}
	_exit(0);
}

int xp_exec_start(struct xp *x)
{
	int a[2], b[2];

#if XP_INPROCESS
	if (sim_heap_started())
		return xp_inprocess_start();
#endif

	if (pipe(a) || pipe(b)) {
		perror("explore: pipe");
		return -1;
	}
	fflush(NULL);
	srv.pid = fork();
	if (srv.pid < 0) {
		perror("explore: fork");
		return -1;
	}
	if (srv.pid == 0) {
		close(a[1]);
		close(b[0]);
		server_loop(x, a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	srv.cmd = a[1];
	srv.ret = b[0];
	return 0;
}

void xp_exec_stop(void)
{
#if XP_INPROCESS
	if (xp_inprocess_on())
		xp_inprocess_stop();
#endif
	if (srv.pid <= 0)
		return;
	close(srv.cmd);
	close(srv.ret);
	waitpid(srv.pid, NULL, 0);
	srv.pid = -1;
}

/* One execution in a child of the fork server; 0, or -1 if no child could run. */
static int exec_fork(struct xp *x)
{
	int st;
	char c = 1;

	if (write(srv.cmd, &c, 1) != 1 || read(srv.ret, &st, sizeof(st)) != sizeof(st)) {
		fprintf(stderr, "explore: the fork server is gone\n");
		return -1;
	}
	if (st == -1 || (WIFEXITED(st) && WEXITSTATUS(st) == 3))
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		xp_mark_crashed(x->sh);
	}
	return 0;
}

void *xp_shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void xp_shared_free(void *p, size_t size)
{
	munmap(p, size);
}

int xp_exec(struct xp *x, int quiet, const unsigned char *sched, const unsigned char *kinds, uint32_t sched_n)
{
	xp_shared_reset(x->sh);
	xp_request_fill(x, quiet, sched, kinds, sched_n);
#if XP_INPROCESS
	if (xp_inprocess_on())
		return xp_inprocess_exec(x);
#endif
	return exec_fork(x);
}

static struct sim_fiber warm_main, warm_fiber;

static void warm_entry(void *arg)
{
	sim_fiber_switch(&warm_fiber, &warm_main, 1);
}

/*
 * One fiber switch before the first fork: the sanitizer's one-time notes
 * about fibers are then printed once, by this process, not by every child.
 */
void xp_warm_up(void)
{
	sim_fiber_init_main(&warm_main);
	if (!sim_fiber_create(&warm_fiber, warm_entry, NULL, 64 * 1024)) {
		sim_fiber_switch(&warm_main, &warm_fiber, 0);
		sim_fiber_destroy(&warm_fiber);
	}
}
#endif
