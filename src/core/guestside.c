/* A guest in a process of its own, the guest's side (outproc.h,
 * docs/api.md).
 *
 * The guest runs here in-process, its hooks stand-ins that hand each
 * event to the embedder over the channel (channel.h) and wait for the
 * answer, serving the embedder's requests (registers, memory, ...) in the
 * meantime on the thread of the event, as in-process hooks would run on
 * it. One round trip at a time per process (the channel's lock): other
 * guest threads with an event wait their turn.
 *
 * The embedder gone (its end closed), hooked calls fail closed, as
 * seccomp's user notification does once its listener is closed: a hooked
 * call's entry answers -ENOSYS, the other events go on unhooked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/channel.h"
#include "core/embed.h"
#include "core/outproc.h"
#include "core/process.h"
#include "hostfd/hostfd.h"

struct sg_guestside {
	int sock;              /* the channel (sysgate's own descriptor) */
	int stop_fd;           /* sg_stop's pipe; -1: none */
	int child_sock;        /* a fork's: the new process's channel */
	pthread_mutex_t lock;  /* one round trip at a time */
	pthread_t stopper;     /* reads stop_fd */
	bool has_stopper;
	bool first;            /* the process sg_load started (or its exec):
				  sg_run's status is its own, told already */
	bool serving;          /* in guestside_serve: sg_run runs here */
	bool lost;             /* the embedder's end is closed */
};

bool guestside_serving(const struct sg_process *p)
{
	return p->guest && p->guest->serving;
}

void guestside_send(struct sg_process *p, const struct chan_msg *m, int fd)
{
	struct sg_guestside *g = p->guest;

	pthread_mutex_lock(&g->lock);
	if (!g->lost && chan_send(g->sock, m, fd) < 0)
		g->lost = true;
	pthread_mutex_unlock(&g->lock);
}

/* sg_stop from the embedder (a byte on the pipe), on a thread of its own
 * with every signal blocked: the guest's signals are for its threads. */
static void *stopper_main(void *arg)
{
	struct sg_process *p = arg;
	char c;

	for (;;) {
		ssize_t n = read(p->guest->stop_fd, &c, 1);

		if (n == 1)
			sg_stop(p);
		else if (n == 0 || errno != EINTR)
			return NULL;
	}
}

static void start_stopper(struct sg_process *p)
{
	struct sg_guestside *g = p->guest;
	sigset_t all, old;

	if (g->stop_fd < 0 || g->has_stopper)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	g->has_stopper = pthread_create(&g->stopper, NULL, stopper_main, p) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void end_stopper(struct sg_guestside *g)
{
	if (!g->has_stopper)
		return;
	pthread_cancel(g->stopper); /* it waits in read, a cancellation point */
	pthread_join(g->stopper, NULL);
	g->has_stopper = false;
}

bool guestside_attach(struct sg_process *p, int sock, int stop_fd)
{
	struct sg_guestside *g = calloc(1, sizeof(*g));

	if (!g)
		return false;
	pthread_mutex_init(&g->lock, NULL);
	g->stop_fd = g->child_sock = -1;
	/* out of the guest's reach and numbers (hostfd.h) */
	g->sock = hostfd_dup(sock, &g->sock);
	close(sock);
	if (stop_fd >= 0) {
		g->stop_fd = hostfd_dup(stop_fd, &g->stop_fd);
		close(stop_fd);
	}
	if (g->sock < 0) {
		free(g);
		return false;
	}
	p->guest = g;
	g->first = g->stop_fd >= 0;
	start_stopper(p);
	return true;
}

void guestside_destroy(struct sg_process *p)
{
	struct sg_guestside *g = p->guest;

	if (!g)
		return;
	end_stopper(g);
	if (g->stop_fd >= 0)
		hostfd_close(g->stop_fd);
	hostfd_close(g->sock);
	if (g->child_sock >= 0)
		hostfd_close(g->child_sock);
	pthread_mutex_destroy(&g->lock);
	free(g);
	p->guest = NULL;
}

/* --- requests -------------------------------------------------------------- */

/* The debugger is the gdb module's, above this one: reached through the
 * public call the embedder made (sysgate.h), weak so that a program of
 * core's modules without gdb links; absent, SG_ERR_STATE. */
#pragma weak sg_gdb_attach

/* The embedder's request in m (fd: a descriptor it passed, or -1),
 * answered in m (in place); false: it wants no answer (a new hook set
 * told to every process at once). */
static bool serve_request(struct sg_process *p, struct chan_msg *m, int fd)
{
	uint64_t a0 = m->a[0], a1 = m->a[1], a2 = m->a[2];
	enum sg_err err = SG_ERR_INVAL;
	uint32_t len = 0;

	switch (m->op) {
	case CH_REQ_REG_READ:
		if (a1 <= 32 && (err = sg_reg_read_bytes(p, (enum sg_reg)a0, m->data, a1)) == SG_OK)
			len = (uint32_t)a1;
		break;
	case CH_REQ_REG_WRITE:
		err = sg_reg_write_bytes(p, (enum sg_reg)a0, m->data, m->len);
		break;
	case CH_REQ_MEM_READ:
		if (a1 <= CHAN_MAX_DATA && (err = sg_mem_read(p, a0, m->data, a1)) == SG_OK)
			len = (uint32_t)a1;
		break;
	case CH_REQ_MEM_WRITE:
		err = sg_mem_write(p, a0, m->data, m->len);
		break;
	case CH_REQ_MEM_STRING:
		if (a1 <= CHAN_MAX_DATA &&
		    (err = sg_mem_read_string(p, a0, (char *)m->data, a1)) == SG_OK)
			len = (uint32_t)strlen((char *)m->data) + 1;
		break;
	case CH_REQ_MEM_REGIONS: {
		size_t count = 0, max = 0;
		struct sg_region *all = NULL;

		/* twice: the count, then all of them */
		err = sg_mem_regions(p, NULL, 0, &count);
		while (err == SG_OK && count > max) {
			max = count + 8;
			free(all);
			all = malloc(max * sizeof(*all));
			err = all ? sg_mem_regions(p, all, max, &count) : SG_ERR_NOMEM;
		}
		if (err == SG_OK) {
			size_t room = CHAN_MAX_DATA / sizeof(*all);
			size_t k = a0 < count ? count - a0 : 0;

			k = k < room ? k : room;
			if (k)
				memcpy(m->data, all + a0, k * sizeof(*all));
			len = (uint32_t)(k * sizeof(*all));
			a0 = count;
		}
		free(all);
		break;
	}
	case CH_REQ_MEM_MAP:
		err = sg_mem_map(p, &a0, a1, (int)a2);
		break;
	case CH_REQ_MEM_UNMAP:
		err = sg_mem_unmap(p, a0, a1);
		break;
	case CH_REQ_MEM_PROTECT:
		err = sg_mem_protect(p, a0, a1, (int)a2);
		break;
	case CH_REQ_HOOKS:
		if (m->len >= sizeof(struct chan_hooks)) {
			guestside_apply_hooks(p, (const struct chan_hooks *)m->data);
			err = SG_OK;
		}
		if (a0 == CHAN_HOOKS_NO_REPLY) {
			if (fd >= 0)
				close(fd);
			return false;
		}
		break;
	case CH_REQ_STOP:
		sg_stop(p);
		err = SG_OK;
		break;
	case CH_REQ_GDB_ATTACH:
		err = fd >= 0 && sg_gdb_attach ? sg_gdb_attach(p, fd, (unsigned)a0) : SG_ERR_STATE;
		break;
	default:
		err = SG_ERR_STATE; /* sg_run and friends from inside a hook */
		break;
	}
	if (fd >= 0)
		close(fd); /* the stub keeps a copy of its own */
	m->op = CH_REPLY;
	m->err = err;
	m->a[0] = a0;
	m->len = len;
	return true;
}

/* The event in m handed over; m is the answer. false: the embedder is gone. */
static bool round_trip(struct sg_process *p, struct chan_msg *m)
{
	struct sg_guestside *g = p->guest;
	bool ok = false;

	pthread_mutex_lock(&g->lock);
	if (!g->lost && chan_send(g->sock, m, -1) == 0) {
		int fd;

		while (chan_recv(g->sock, m, &fd) > 0) {
			if (m->op == CH_ANSWER) {
				if (fd >= 0)
					close(fd);
				ok = true;
				break;
			}
			if (serve_request(p, m, fd) && chan_send(g->sock, m, -1) < 0)
				break;
		}
	}
	if (!ok)
		g->lost = true;
	pthread_mutex_unlock(&g->lock);
	return ok;
}

static struct chan_msg *new_msg(enum chan_op op)
{
	struct chan_msg *m = malloc(sizeof(*m));

	if (m)
		memset(m, 0, offsetof(struct chan_msg, data));
	if (m)
		m->op = op;
	return m;
}

/* --- the stand-in hooks ---------------------------------------------------- */

static enum sg_hook_action hand_syscall(sg_process *p, struct sg_syscall_info *info,
					unsigned when)
{
	struct chan_msg *m = new_msg(CH_EV_SYSCALL);
	struct chan_syscall *cs;
	enum sg_hook_action act = SG_HOOK_CONTINUE;

	if (!m)
		return SG_HOOK_KILL; /* no memory to ask: fail closed */
	cs = (struct chan_syscall *)m->data;
	cs->abi = info->abi;
	cs->tid = info->tid;
	cs->nr = info->nr;
	cs->when = when;
	memcpy(cs->args, info->args, sizeof(cs->args));
	cs->result = info->result;
	if (info->name)
		snprintf(cs->name, sizeof(cs->name), "%s", info->name);
	m->len = sizeof(*cs);
	if (round_trip(p, m) && m->len >= sizeof(*cs)) {
		act = (enum sg_hook_action)m->a[0];
		memcpy(info->args, cs->args, sizeof(info->args));
		info->result = (long)cs->result;
	} else if (when == SG_HOOK_ON_ENTRY) {
		info->result = -ENOSYS; /* nobody to ask: fail closed */
		act = SG_HOOK_SKIP;
	}
	free(m);
	return act;
}

static enum sg_hook_action hand_entry(sg_process *p, struct sg_syscall_info *info, void *user)
{
	(void)user;
	return hand_syscall(p, info, SG_HOOK_ON_ENTRY);
}

static enum sg_hook_action hand_exit(sg_process *p, struct sg_syscall_info *info, void *user)
{
	(void)user;
	return hand_syscall(p, info, SG_HOOK_ON_EXIT);
}

static void hand_event(sg_process *p, const struct sg_event_info *ev, void *user)
{
	struct chan_msg *m = new_msg(CH_EV_EVENT);
	struct chan_event *ce;

	(void)user;
	if (!m)
		return;
	ce = (struct chan_event *)m->data;
	ce->event = ev->event;
	ce->tid = ev->tid;
	ce->value = ev->value;
	ce->id = ev->id;
	ce->has_path = ev->path != NULL;
	if (ev->path)
		snprintf(ce->path, sizeof(ce->path), "%s", ev->path);
	m->len = sizeof(*ce);
	round_trip(p, m);
	free(m);
}

static enum sg_hook_action hand_signal(sg_process *p, int tid, int signo, void *user)
{
	struct chan_msg *m = new_msg(CH_EV_SIGNAL);
	enum sg_hook_action act = SG_HOOK_CONTINUE;

	(void)user;
	if (!m)
		return act;
	m->a[0] = (uint64_t)tid;
	m->a[1] = (uint64_t)signo;
	if (round_trip(p, m))
		act = (enum sg_hook_action)m->a[0];
	free(m);
	return act;
}

static void hand_code(sg_process *p, enum chan_code kind, uint64_t pc, uint64_t id)
{
	/* the header only: no 64 KiB buffer per instruction */
	struct chan_msg *m = new_msg(CH_EV_CODE);

	if (!m)
		return;
	m->a[0] = kind;
	m->a[1] = pc;
	m->a[2] = id;
	round_trip(p, m);
	free(m);
}

static void hand_insn(sg_process *p, uint64_t pc, void *user)
{
	(void)user;
	hand_code(p, CHAN_CODE_INSN, pc, 0);
}

static void hand_block(sg_process *p, uint64_t pc, void *user)
{
	(void)user;
	hand_code(p, CHAN_CODE_BLOCK, pc, 0);
}

static void hand_range(sg_process *p, uint64_t pc, void *user)
{
	hand_code(p, CHAN_CODE_RANGE, pc, (uint64_t)(uintptr_t)user);
}

/* The numbers set in bits (SG_HOOK_NR_MAX of them) into nrs; how many. */
static size_t nrs_of(const uint64_t *bits, unsigned *nrs)
{
	size_t n = 0;

	for (unsigned nr = 0; nr < SG_HOOK_NR_MAX; nr++)
		if (bits[nr / 64] >> (nr % 64) & 1)
			nrs[n++] = nr;
	return n;
}

void guestside_apply_hooks(struct sg_process *p, const struct chan_hooks *h)
{
	static const enum sg_abi abis[3] = { SG_ABI_I386, SG_ABI_X32, SG_ABI_X64 };
	unsigned nrs[SG_HOOK_NR_MAX];

	embed_clear_hooks(p);
	/* an all-calls hook sees every call: the per-number ones come with it
	 * (the embedder runs them all for the one event) */
	if (h->flags & CHAN_HOOK_ENTRY_ALL)
		sg_hook_syscall_entry(p, hand_entry, NULL);
	if (h->flags & CHAN_HOOK_EXIT_ALL)
		sg_hook_syscall_exit(p, hand_exit, NULL);
	for (int i = 0; i < 3; i++) {
		size_t n;

		if (!(h->flags & CHAN_HOOK_ENTRY_ALL) && (n = nrs_of(h->entry[i], nrs)))
			sg_hook_syscall_nrs(p, abis[i], nrs, n, SG_HOOK_ON_ENTRY, hand_entry,
					    NULL, NULL);
		if (!(h->flags & CHAN_HOOK_EXIT_ALL) && (n = nrs_of(h->exit[i], nrs)))
			sg_hook_syscall_nrs(p, abis[i], nrs, n, SG_HOOK_ON_EXIT, hand_exit,
					    NULL, NULL);
	}
	if (h->flags & CHAN_HOOK_EVENT)
		sg_hook_event(p, hand_event, NULL);
	if (h->flags & CHAN_HOOK_SIGNAL)
		sg_hook_signal(p, hand_signal, NULL);
	if (h->flags & CHAN_HOOK_INSN)
		sg_hook_insn(p, hand_insn, NULL);
	if (h->flags & CHAN_HOOK_BLOCK)
		sg_hook_block(p, hand_block, NULL);
	for (uint32_t i = 0; i < h->nranges && i < CHAN_MAX_RANGES; i++)
		sg_hook_code_range(p, h->ranges[i].begin, h->ranges[i].end, hand_range,
				   (void *)(uintptr_t)h->ranges[i].id, NULL);
}

/* --- the process's life ---------------------------------------------------- */

bool guestside_hello(struct sg_process *p, int sock)
{
	struct chan_msg *m = new_msg(CH_HELLO);
	struct sg_guestside *g;
	int stop_fd = -1;
	bool ok = false;

	if (!m || !guestside_attach(p, sock, -1)) {
		free(m);
		return false;
	}
	g = p->guest;
	pthread_mutex_lock(&g->lock);
	if (chan_send(g->sock, m, -1) == 0)
		/* an answer the image before the exec waited for may come first */
		while (chan_recv(g->sock, m, &stop_fd) > 0) {
			if (m->op == CH_ANSWER && m->len >= sizeof(struct chan_hooks)) {
				ok = true;
				break;
			}
			if (stop_fd >= 0)
				close(stop_fd);
			stop_fd = -1;
			/* a request for the image before the exec (a hook of
			 * the embedder's still running): that guest is gone */
			if (m->op < CH_ANSWER &&
			    !(m->op == CH_REQ_HOOKS && m->a[0] == CHAN_HOOKS_NO_REPLY)) {
				m->op = CH_REPLY;
				m->err = SG_ERR_STATE;
				m->len = 0;
				if (chan_send(g->sock, m, -1) < 0)
					break;
			}
		}
	pthread_mutex_unlock(&g->lock);
	if (ok)
		guestside_apply_hooks(p, (const struct chan_hooks *)m->data);
	if (stop_fd >= 0) {
		g->stop_fd = hostfd_dup(stop_fd, &g->stop_fd);
		close(stop_fd);
		g->first = true;
		start_stopper(p);
	}
	g->lost = !ok;
	free(m);
	return ok;
}

static void run_done(struct sg_process *p, enum sg_err err, const struct sg_exit *st)
{
	struct chan_msg *m = new_msg(CH_RUN_DONE);

	if (!m)
		return;
	m->err = err;
	m->a[0] = p->exited;
	memcpy(m->data, st, sizeof(*st));
	m->len = sizeof(*st);
	guestside_send(p, m, -1);
	free(m);
}

static enum sg_err run_here(struct sg_process *p, int kind, uint64_t until, uint64_t budget,
			    struct sg_exit *st)
{
	enum sg_err err;

	memset(st, 0, sizeof(*st));
	if (kind == CHAN_STEP)
		err = sg_step(p, st);
	else if (kind == CHAN_RUN_UNTIL)
		err = sg_run_until(p, until, budget, st);
	else
		err = sg_run(p, st);
	if (p->exited && (err == SG_OK || err == SG_ERR_STATE))
		err = SG_OK; /* a step that ended it: the exit */
	run_done(p, err, st);
	return err;
}

enum sg_err guestside_serve(struct sg_process *p, bool run_first, struct sg_exit *status)
{
	struct sg_guestside *g = p->guest;
	struct chan_msg *m = new_msg(CH_REPLY);
	enum sg_err err = SG_OK;

	if (!m)
		return SG_ERR_NOMEM;
	g->serving = true;
	if (run_first)
		err = run_here(p, CHAN_RUN, 0, 0, status);
	while (!p->exited) {
		int r, fd = -1;

		pthread_mutex_lock(&g->lock);
		r = g->lost ? 0 : chan_recv(g->sock, m, &fd);
		if (r <= 0) {
			/* the embedder is gone (sg_destroy): so is the guest */
			g->lost = true;
			pthread_mutex_unlock(&g->lock);
			err = SG_ERR_STATE;
			break;
		}
		if (m->op != CH_REQ_RUN) {
			if (serve_request(p, m, fd) && chan_send(g->sock, m, -1) < 0)
				g->lost = true;
			pthread_mutex_unlock(&g->lock);
			continue;
		}
		pthread_mutex_unlock(&g->lock);
		if (fd >= 0)
			close(fd);
		err = run_here(p, (int)m->a[0], m->a[1], m->a[2], status);
	}
	g->serving = false;
	free(m);
	return err;
}

/* A fork of the guest: the new process gets a channel of its own, whose
 * other end the embedder takes now (CH_NEW_PROCESS), as a seccomp filter
 * is inherited. */
void guestside_before_fork(struct sg_process *p)
{
	struct sg_guestside *g = p->guest;
	struct chan_msg *m;
	int sv[2];

	if (!g || g->lost)
		return;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		return;
	m = new_msg(CH_NEW_PROCESS);
	pthread_mutex_lock(&g->lock);
	if (m && chan_send(g->sock, m, sv[1]) == 0) {
		int fd;

		while (chan_recv(g->sock, m, &fd) > 0 && m->op != CH_ANSWER)
			if (serve_request(p, m, fd))
				chan_send(g->sock, m, -1);
	}
	pthread_mutex_unlock(&g->lock);
	free(m);
	close(sv[1]);
	g->child_sock = hostfd_dup(sv[0], &g->child_sock);
	close(sv[0]);
}

void guestside_after_fork(struct sg_process *p, long pid)
{
	struct sg_guestside *g = p->guest;

	(void)pid;
	if (g && g->child_sock >= 0) {
		hostfd_close(g->child_sock);
		g->child_sock = -1;
	}
}

void guestside_forked(struct sg_process *p)
{
	struct sg_guestside *g = p->guest;

	if (!g)
		return;
	pthread_mutex_init(&g->lock, NULL);
	/* sg_stop is for the first process only: no stopper thread here */
	g->has_stopper = false;
	g->first = false;
	if (g->stop_fd >= 0)
		hostfd_close(g->stop_fd);
	g->stop_fd = -1;
	hostfd_close(g->sock);
	g->sock = g->child_sock;
	g->child_sock = -1;
	if (g->sock >= 0)
		hostfd_hold(g->sock, &g->sock);
	else
		g->lost = true; /* no channel of its own: its hooked calls fail */
}

bool guestside_first(const struct sg_process *p)
{
	return p->guest && p->guest->first;
}

int guestside_exec_option(struct sg_process *p, char *buf, size_t size)
{
	struct sg_guestside *g = p->guest;

	if (!g || g->lost)
		return -1;
	snprintf(buf, size, "--embed-fd=%d", g->sock);
	return g->sock;
}
