// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running a scenario and describing its events as JSON. See lab.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lab.h"
#include "kinds.h"


int lab_run(const struct scenario *sc, const struct scenario_params *p,
	    unsigned long max_events, struct lab_result *res)
{
	static struct scenario_params params;
	struct sim_config cfg = {
		.nr_cpus = sc->nr_cpus,
		.nr_nodes = sc->nr_nodes,
		.seed = p->seed,
		.max_events = max_events,
	};
	int i;

	memset(res, 0, sizeof(*res));
	params = *p;
	if (sim_init(&cfg))
		return -1;
	if (sim_spawn(0, "init", sc->init, &params) < 0)
		return -1;
	res->status = sim_run();
	sim_log(&res->events);
	res->live_objects = sim_live_objects();
	res->steps = sim_total_steps();
	for (i = 0; i < sim_ncpus; i++)
		if (sim_cpus[i].clock > res->end_time)
			res->end_time = sim_cpus[i].clock;
	return 0;
}

/* A small string builder. */
struct sb {
	char *s;
	size_t n, cap;
};

static void sb_put(struct sb *b, const char *fmt, ...)
{
	va_list ap;
	int len;

	for (;;) {
		size_t room = b->cap - b->n;

		va_start(ap, fmt);
		len = vsnprintf(b->s ? b->s + b->n : NULL, room, fmt, ap);
		va_end(ap);
		if (len < 0)
			abort();
		if ((size_t)len < room) {
			b->n += (size_t)len;
			return;
		}
		b->cap = (b->cap + (size_t)len + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
}

static void sb_str(struct sb *b, const char *s)
{
	sb_put(b, "\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			sb_put(b, "\\%c", c);
		else if (c < 0x20)
			sb_put(b, "\\u%04x", c);
		else
			sb_put(b, "%c", c);
	}
	sb_put(b, "\"");
}

static void event_json(struct sb *b, size_t i, const struct sim_event *e)
{
	const struct sim_site *site = sim_site_at((int)e->site);
	int a, first = 1;

	sb_put(b, "{\"i\":%zu,\"t\":%llu,\"cpu\":%d,\"task\":%d,\"kind\":\"%s\"",
	       i, (unsigned long long)e->time, e->cpu, e->task == 255 ? -1 : e->task,
	       sim_event_kind_name(e->kind));
	if (site) {
		sb_put(b, ",\"tree\":");
		sb_str(b, site->tree);
		sb_put(b, ",\"file\":");
		sb_str(b, site->file);
		sb_put(b, ",\"line\":%d,\"func\":", site->line);
		sb_str(b, site->func);
		if (site->expr) {
			sb_put(b, ",\"expr\":");
			sb_str(b, site->expr);
		}
	}
	sb_put(b, ",\"args\":{");
	for (a = 0; a < 4; a++) {
		const char *an = sim_kinds[e->kind].args[a];

		if (!strcmp(an, "-"))
			continue;
		sb_put(b, "%s\"%s\":", first ? "" : ",", an);
		if (!strcmp(an, "name"))
			sb_str(b, sim_name_at(e->arg[a]));
		else
			sb_put(b, "%d", e->arg[a]);
		first = 0;
	}
	sb_put(b, "}}");
}

int lab_event_json(size_t index, char *buf, size_t size)
{
	size_t n;
	const struct sim_event *log = sim_log(&n);
	struct sb b = { NULL, 0, 0 };
	int len;

	if (index >= n)
		return -1;
	event_json(&b, index, &log[index]);
	len = snprintf(buf, size, "%s", b.s);
	free(b.s);
	if (len >= (int)size)
		len = (int)size - 1;	/* truncated: never report more than was written */
	return len;
}

char *lab_meta_json(const struct lab_result *res)
{
	struct sb b = { NULL, 0, 0 };
	int i, k;

	sb_put(&b, "{\"status\":\"%s\",\"events\":%zu,\"live_objects\":%lu,\"steps\":%lu,"
		   "\"end_time\":%llu,\"cpus\":%d,\"nodes\":%d",
	       sim_status_str(res->status), res->events, res->live_objects, res->steps,
	       (unsigned long long)res->end_time, sim_ncpus, sim_nr_nodes);

	sb_put(&b, ",\"kinds\":[");
	for (k = 0; k < SIM_EV_NR_KINDS; k++) {
		sb_put(&b, "%s{\"name\":", k ? "," : "");
		sb_str(&b, sim_kinds[k].name);
		sb_put(&b, ",\"args\":[");
		for (i = 0; i < 4; i++) {
			sb_put(&b, i ? "," : "");
			sb_str(&b, sim_kinds[k].args[i]);
		}
		sb_put(&b, "],\"doc\":");
		sb_str(&b, sim_kinds[k].doc);
		sb_put(&b, "}");
	}

	sb_put(&b, "],\"sites\":[");
	for (i = 0; i < sim_nr_sites(); i++) {
		const struct sim_site *s = sim_site_at(i);

		sb_put(&b, "%s{\"tree\":", i ? "," : "");
		sb_str(&b, s->tree);
		sb_put(&b, ",\"file\":");
		sb_str(&b, s->file);
		sb_put(&b, ",\"line\":%d,\"func\":", s->line);
		sb_str(&b, s->func);
		sb_put(&b, ",\"expr\":");
		if (s->expr)
			sb_str(&b, s->expr);
		else
			sb_put(&b, "null");
		sb_put(&b, "}");
	}

	sb_put(&b, "],\"names\":[");
	for (i = 0; i < sim_nr_names(); i++) {
		sb_put(&b, i ? "," : "");
		sb_str(&b, sim_name_at(i));
	}

	sb_put(&b, "],\"tasks\":[");
	for (i = 0; sim_task_by_id(i); i++) {
		const struct sim_task *t = sim_task_by_id(i);

		sb_put(&b, "%s{\"id\":%d,\"cpu\":%d,\"name\":", i ? "," : "", t->id, t->cpu);
		sb_str(&b, sim_name_at(t->name));
		sb_put(&b, ",\"rcuc\":%s}", t->is_rcuc ? "true" : "false");
	}

	sb_put(&b, "],\"costs\":[");
	for (i = 1; i < SIM_NR_COSTS; i++) {
		sb_put(&b, "%s{\"name\":", i > 1 ? "," : "");
		sb_str(&b, sim_cost_name(i));
		sb_put(&b, ",\"ns\":%u}", sim_cost_base(i));
	}
	sb_put(&b, "]}");
	return b.s;
}

uint64_t lab_fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}
