/* A guest in a process of its own, the embedder's side (outproc.h,
 * docs/api.md).
 *
 * sg_load forks: the child becomes the guest's process (guestside.c) and
 * this process keeps a channel to it (channel.h). Every later call on the
 * sg_process is a request over that channel; sg_run asks it to run and
 * then serves the events it hands over, running the user's hooks here, on
 * the thread in sg_run. A guest fork hands over a channel of its own for
 * the new process (CH_NEW_PROCESS): its events come here too, all on that
 * thread. A guest execve keeps the channel (the new image says CH_HELLO).
 *
 * Why a fork of the embedder and not a fresh sysgate: the child starts
 * with the program loaded exactly as sg_load would load it here (the
 * options, argv and envp are already in its memory, a memory image's
 * memfd is inherited) and sg_load can answer its error at once. Only a
 * guest's execve starts the sysgate command (found next to the library:
 * outproc_sysgate_exe), which takes the channel over (--embed-fd).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/channel.h"
#include "core/embed.h"
#include "core/outproc.h"
#include "core/process.h"
#include "hostfd/hostfd.h"
#include "trace/trace.h"

struct sg_client {
	pid_t pid;            /* the guest's process; 0: none (reaped) */
	int sock;             /* its channel; -1: none */
	int stop_r, stop_w;   /* sg_stop: a byte; the read end goes to each new image */
	int *peers;           /* the channels of the processes the guest forked */
	size_t npeers;
	struct chan_msg *req; /* requests and their replies */
	struct chan_msg *ev;  /* the events sg_run serves and their answers */
	bool exited;
	struct sg_exit exit;
};

/* The event whose hooks this thread is running: requests inside them go
 * to that guest process. */
static __thread struct {
	struct sg_process *p;
	int sock;
} current = { NULL, -1 };

static int sock_for(const struct sg_process *p)
{
	return current.p == p ? current.sock : p->client->sock;
}

/* --- the guest's process ---------------------------------------------- */

/* The sysgate command a guest's execve starts: SYSGATE_EXE, else the one
 * installed with this library (SG_LIB_TO_BIN from its folder), else the
 * configured install folder. NULL: none (a guest's execve then fails
 * with ENOEXEC rather than run without the hooks). */
static char *sysgate_exe(void)
{
	const char *env = getenv("SYSGATE_EXE");
	char self[PATH_MAX], path[PATH_MAX + 64], *real;
	Dl_info info;
	ssize_t n;

	if (env && *env)
		return strdup(env);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = 0;
	if (dladdr((void *)sg_create, &info) && info.dli_fname) {
		const char *slash = strrchr(info.dli_fname, '/');
		int len = slash ? (int)(slash - info.dli_fname) : 1;

		snprintf(path, sizeof(path), "%.*s/%s/sysgate", len,
			 slash ? info.dli_fname : ".", SG_LIB_TO_BIN);
		real = realpath(path, NULL);
		if (real && access(real, X_OK) == 0 && strcmp(real, self) != 0)
			return real;
		free(real);
	}
	snprintf(path, sizeof(path), "%s/sysgate", SG_INSTALL_BINDIR);
	if (access(path, X_OK) == 0 && strcmp(path, self) != 0)
		return strdup(path);
	return NULL;
}

/* The guest's descriptors 0, 1, 2 as the options say. */
static void set_stdio(const struct sg_options *o)
{
	const int given[3] = { o->stdin_fd, o->stdout_fd, o->stderr_fd };
	int copy[3];

	/* copies first: a given descriptor may be 0, 1 or 2 itself */
	for (int i = 0; i < 3; i++)
		copy[i] = given[i] >= 0 ? fcntl(given[i], F_DUPFD_CLOEXEC, 3) : -1;
	for (int i = 0; i < 3; i++)
		if (copy[i] >= 0) {
			dup2(copy[i], i);
			close(copy[i]);
		}
}

/* Nothing of the embedder's stays open in the guest's process: only 0, 1,
 * 2 and sysgate's own (hostfd.h: the channel, the stop pipe, a trace). */
static void close_others(void)
{
	int own[HOSTFD_MAX], n = hostfd_list(own, HOSTFD_MAX);
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int dfd = d ? dirfd(d) : -1;

	if (!d)
		return;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		bool keep = fd <= 2 || fd == dfd || e->d_name[0] == '.';

		for (int i = 0; i < n && !keep; i++)
			keep = own[i] == fd;
		if (!keep)
			close(fd);
	}
	closedir(d);
}

/* The embedder's signal handlers are its code: the guest's process starts
 * with the default actions (ignored signals stay ignored, as over an
 * exec). */
static void default_handlers(void)
{
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &sa) != 0)
			continue;
		if (sa.sa_handler != SIG_IGN && sa.sa_handler != SIG_DFL)
			signal(sig, SIG_DFL);
	}
}

/* The trace, in the process it traces (sg_create kept its descriptor). */
static enum sg_err make_trace(struct sg_process *p)
{
	int fd;

	if (p->pending_trace_fd < 0)
		return SG_OK;
	/* sysgate's own copy, out of the guest's reach (hostfd.h) */
	fd = hostfd_dup(p->pending_trace_fd, NULL);
	close(p->pending_trace_fd);
	p->pending_trace_fd = -1;
	if (fd < 0)
		return SG_ERR_NOMEM;
	p->trace = trace_create_opts(fd, &p->opts);
	if (!p->trace) {
		hostfd_close(fd);
		return errno == EINVAL ? SG_ERR_FILTER : SG_ERR_NOMEM;
	}
	return SG_OK;
}

static void become_guest(struct sg_process *p, int sock, int stop_r,
			 const struct load_args *a) __attribute__((noreturn));
static void become_guest(struct sg_process *p, int sock, int stop_r,
			 const struct load_args *a)
{
	struct chan_msg *m = malloc(sizeof(*m));
	struct sg_client *c = p->client;
	enum sg_err err;

	/* the user's hooks become stand-ins that hand each event back */
	if (!m)
		_exit(127);
	embed_hooks_describe(p, (struct chan_hooks *)m->data);
	p->client = NULL;
	free(c->req);
	free(c->ev);
	free(c->peers);
	free(c);
	free(p->host_exe);
	p->host_exe = sysgate_exe();
	default_handlers();
	set_stdio(&p->opts);
	if (!guestside_attach(p, sock, stop_r))
		_exit(127);
	guestside_apply_hooks(p, (struct chan_hooks *)m->data);
	err = make_trace(p);
	if (err == SG_OK)
		err = process_load_here(p, a);
	close_others();
	memset(m, 0, offsetof(struct chan_msg, data));
	m->op = CH_LOADED;
	m->err = err;
	m->a[0] = p->abi;
	guestside_send(p, m, -1);
	free(m);
	if (err == SG_OK) {
		struct sg_exit st = { 0 };
		bool first;

		guestside_serve(p, false, &st);
		first = guestside_first(p);
		if (p->trace)
			sg_destroy(p); /* the trace flushed and closed (its -c table) */
		/* a process the guest forked ends as the guest did, for its
		 * parent's wait; the first one told the embedder already */
		if (!first && st.signaled) {
			sigset_t one;

			signal(st.signal, SIG_DFL);
			sigemptyset(&one);
			sigaddset(&one, st.signal);
			pthread_sigmask(SIG_UNBLOCK, &one, NULL);
			raise(st.signal);
		}
		if (!first)
			_exit(st.code);
	}
	_exit(0);
}

static void client_free(struct sg_process *p)
{
	struct sg_client *c = p->client;

	if (!c)
		return;
	if (c->sock >= 0)
		close(c->sock);
	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	for (size_t i = 0; i < c->npeers; i++)
		close(c->peers[i]);
	if (c->stop_r >= 0)
		close(c->stop_r);
	if (c->stop_w >= 0)
		close(c->stop_w);
	free(c->peers);
	free(c->req);
	free(c->ev);
	free(c);
	p->client = NULL;
}

enum sg_err client_load(struct sg_process *p, const struct load_args *a)
{
	struct sg_client *c = calloc(1, sizeof(*c));
	int sv[2], stop[2];
	pid_t pid;
	int r;

	if (!c)
		return SG_ERR_NOMEM;
	c->sock = c->stop_r = c->stop_w = -1;
	c->req = malloc(sizeof(*c->req));
	c->ev = malloc(sizeof(*c->ev));
	p->client = c;
	if (!c->req || !c->ev)
		goto nomem;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		goto nomem;
	if (pipe2(stop, O_CLOEXEC) != 0) {
		close(sv[0]);
		close(sv[1]);
		goto nomem;
	}
	c->sock = sv[0];
	c->stop_r = stop[0];
	c->stop_w = stop[1];
	fcntl(c->stop_w, F_SETFL, O_NONBLOCK); /* sg_stop never blocks */
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		close(stop[1]);
		become_guest(p, sv[1], stop[0], a);
	}
	close(sv[1]);
	if (pid < 0)
		goto nomem;
	c->pid = pid;
	r = chan_recv(c->sock, c->req, NULL);
	if (r > 0 && c->req->op == CH_LOADED && c->req->err == SG_OK) {
		p->abi = (enum sg_abi)c->req->a[0];
		p->loaded = true;
		return SG_OK;
	}
	r = r > 0 && c->req->op == CH_LOADED ? c->req->err : SG_ERR_NOMEM;
	client_free(p);
	return (enum sg_err)r;
nomem:
	client_free(p);
	return SG_ERR_NOMEM;
}

/* A new image (a guest's execve) asks for the hooks, and the first
 * process's gets the stop pipe; m is the answer. */
static void answer_hello(struct sg_process *p, int sock, struct chan_msg *m)
{
	struct sg_client *c = p->client;

	memset(m, 0, offsetof(struct chan_msg, data));
	m->op = CH_ANSWER;
	m->len = (uint32_t)embed_hooks_describe(p, (struct chan_hooks *)m->data);
	chan_send(sock, m, sock == c->sock ? c->stop_r : -1);
}

/* A request (with fd passed, -1: none) and its reply (in c->req). */
static enum sg_err call_fd(struct sg_process *p, struct chan_msg *m, int fd)
{
	int sock = sock_for(p);

	if (sock < 0 || p->client->exited || chan_send(sock, m, fd) < 0)
		return SG_ERR_STATE;
	for (;;) {
		if (chan_recv(sock, m, NULL) <= 0)
			return SG_ERR_STATE;
		if (m->op == CH_REPLY)
			return (enum sg_err)m->err;
		if (m->op == CH_HELLO) /* the guest exec'd meanwhile */
			answer_hello(p, sock, m);
	}
}

static enum sg_err call(struct sg_process *p, struct chan_msg *m)
{
	return call_fd(p, m, -1);
}

static struct chan_msg *request(struct sg_process *p, enum chan_op op, uint64_t a0,
				uint64_t a1, uint64_t a2)
{
	struct chan_msg *m = p->client->req;

	memset(m, 0, offsetof(struct chan_msg, data));
	m->op = op;
	m->a[0] = a0;
	m->a[1] = a1;
	m->a[2] = a2;
	return m;
}

/* --- sg_run: the events ------------------------------------------------ */

static void reap(struct sg_process *p, struct sg_exit *st)
{
	struct sg_client *c = p->client;
	int ws = 0;
	pid_t r;

	do
		r = waitpid(c->pid, &ws, 0);
	while (r < 0 && errno == EINTR);
	c->pid = 0;
	if (st && r > 0) {
		st->signaled = WIFSIGNALED(ws);
		st->signal = st->signaled ? WTERMSIG(ws) : 0;
		st->code = st->signaled ? 0 : WEXITSTATUS(ws);
	}
}

/* The guest has exited: its status kept, its process reaped, the other
 * processes' channels closed (their hooked calls fail from now on). */
static void guest_ended(struct sg_process *p, const struct sg_exit *st, bool died)
{
	struct sg_client *c = p->client;
	struct sg_exit ws = { 0 };

	close(c->sock);
	c->sock = -1;
	reap(p, &ws);
	c->exit = died ? ws : *st;
	c->exited = true;
	for (size_t i = 0; i < c->npeers; i++)
		close(c->peers[i]);
	c->npeers = 0;
}

/* The hooks as the guest's side must stop for them, into m's data. */
static void describe_hooks(struct sg_process *p, struct chan_msg *m)
{
	m->len = (uint32_t)embed_hooks_describe(p, (struct chan_hooks *)m->data);
}

/* One event the guest's side handed over (in m): the user's hooks run,
 * the answer goes back in m. */
static void run_hooks(struct sg_process *p, int sock, struct chan_msg *m)
{
	__typeof__(current) outer = current;

	current.p = p;
	current.sock = sock;
	switch (m->op) {
	case CH_EV_SYSCALL: {
		struct chan_syscall *cs = (struct chan_syscall *)m->data;
		struct sg_syscall_info info = {
			.abi = (enum sg_abi)cs->abi,
			.name = cs->name[0] ? cs->name : NULL,
			.nr = cs->nr,
			.tid = cs->tid,
			.result = (long)cs->result,
		};

		cs->name[sizeof(cs->name) - 1] = 0;
		memcpy(info.args, cs->args, sizeof(info.args));
		m->a[0] = embed_syscall_hooks(p, cs->when, &info);
		memcpy(cs->args, info.args, sizeof(cs->args));
		cs->result = info.result;
		break;
	}
	case CH_EV_EVENT: {
		struct chan_event *ce = (struct chan_event *)m->data;
		struct sg_event_info ev = {
			.event = (enum sg_event)ce->event,
			.tid = ce->tid,
			.id = (long)ce->id,
			.value = ce->value,
		};

		ce->path[sizeof(ce->path) - 1] = 0;
		ev.path = ce->has_path ? ce->path : NULL;
		embed_event_hook(p, &ev);
		m->len = 0;
		break;
	}
	case CH_EV_SIGNAL:
		m->a[0] = embed_signal_hook(p, (int)m->a[0], (int)m->a[1]);
		break;
	case CH_EV_CODE:
		embed_code_hook(p, (int)m->a[0], m->a[1], (unsigned)m->a[2]);
		break;
	}
	current = outer;
	m->op = CH_ANSWER;
}

static void add_peer(struct sg_client *c, int fd)
{
	int *more = realloc(c->peers, (c->npeers + 1) * sizeof(*more));

	if (!more) {
		close(fd); /* that process's hooked calls fail: fail closed */
		return;
	}
	c->peers = more;
	c->peers[c->npeers++] = fd;
}

static void drop_peer(struct sg_client *c, size_t i)
{
	close(c->peers[i]);
	c->peers[i] = c->peers[--c->npeers];
}

/* One message from sock; true: the run is over (*err, *st). */
static bool serve_one(struct sg_process *p, int sock, size_t peer, enum sg_err *err,
		      struct sg_exit *st)
{
	struct sg_client *c = p->client;
	struct chan_msg *m = c->ev;
	bool main = sock == c->sock;
	int fd = -1;

	if (chan_recv(sock, m, &fd) <= 0) {
		if (!main) {
			drop_peer(c, peer);
			return false;
		}
		/* the guest's process died without a word: its status */
		guest_ended(p, NULL, true);
		*st = c->exit;
		*err = SG_OK;
		return true;
	}
	switch (m->op) {
	case CH_RUN_DONE:
		if (!main)
			return false;
		memcpy(st, m->data, sizeof(*st));
		*err = (enum sg_err)m->err;
		if (m->a[0]) /* the guest has exited (not a step, a stop) */
			guest_ended(p, st, false);
		return true;
	case CH_HELLO:
		answer_hello(p, sock, m);
		return false;
	case CH_NEW_PROCESS:
		if (fd >= 0)
			add_peer(c, fd);
		fd = -1;
		m->op = CH_ANSWER;
		m->len = 0;
		chan_send(sock, m, -1);
		return false;
	case CH_EV_SYSCALL: case CH_EV_EVENT: case CH_EV_SIGNAL: case CH_EV_CODE:
		run_hooks(p, sock, m);
		chan_send(sock, m, -1);
		return false;
	}
	if (fd >= 0)
		close(fd);
	return false;
}

enum sg_err client_run(struct sg_process *p, int kind, uint64_t until, uint64_t budget,
		       struct sg_exit *status)
{
	struct sg_client *c = p->client;
	struct sg_exit st = { 0 };
	enum sg_err err = SG_ERR_STATE;
	bool over = false;

	if (c->exited) {
		if (status)
			*status = c->exit;
		return SG_ERR_STATE;
	}
	if (current.p == p)
		return SG_ERR_STATE; /* from inside a hook */
	if (chan_send(c->sock, request(p, CH_REQ_RUN, (uint64_t)kind, until, budget), -1) < 0) {
		guest_ended(p, NULL, true);
		if (status)
			*status = c->exit;
		return SG_OK;
	}
	while (!over) {
		size_t n = c->npeers + 1;
		struct pollfd *fds;

		if (!c->npeers) {
			/* one process: its next message, without a poll */
			over = serve_one(p, c->sock, 0, &err, &st);
			continue;
		}
		fds = calloc(n, sizeof(*fds));

		if (!fds)
			return SG_ERR_NOMEM;
		fds[0] = (struct pollfd){ .fd = c->sock, .events = POLLIN };
		for (size_t i = 0; i < c->npeers; i++)
			fds[i + 1] = (struct pollfd){ .fd = c->peers[i], .events = POLLIN };
		if (poll(fds, n, -1) < 0) {
			free(fds);
			if (errno == EINTR)
				continue;
			return SG_ERR_STATE;
		}
		/* the others first: the main one may end the run */
		for (size_t i = n; i-- > 1 && !over;)
			if (fds[i].revents && i - 1 < c->npeers && c->peers[i - 1] == fds[i].fd)
				serve_one(p, fds[i].fd, i - 1, &err, &st);
		if (fds[0].revents)
			over = serve_one(p, c->sock, 0, &err, &st);
		free(fds);
	}
	if (status)
		*status = st;
	return err;
}

void client_stop(struct sg_process *p)
{
	struct sg_client *c = p->client;

	if (current.p == p) {
		/* inside a hook: stopped before the guest goes on */
		call(p, request(p, CH_REQ_STOP, 0, 0, 0));
		return;
	}
	if (c->stop_w >= 0 && write(c->stop_w, "s", 1) < 0) {
		/* a stop is pending already (the pipe is full) */
	}
}

/* --- registers, memory, the address space ------------------------------ */

enum sg_err client_reg_read(struct sg_process *p, enum sg_reg reg, void *buf, size_t size)
{
	struct chan_msg *m = request(p, CH_REQ_REG_READ, (uint64_t)reg, size, 0);
	enum sg_err err = call(p, m);

	if (err == SG_OK && m->len != size)
		return SG_ERR_STATE;
	if (err == SG_OK)
		memcpy(buf, m->data, size);
	return err;
}

enum sg_err client_reg_write(struct sg_process *p, enum sg_reg reg, const void *buf,
			     size_t size)
{
	struct chan_msg *m = request(p, CH_REQ_REG_WRITE, (uint64_t)reg, size, 0);

	memcpy(m->data, buf, size);
	m->len = (uint32_t)size;
	return call(p, m);
}

/* [addr, addr + n) a message at a time into buf. */
static enum sg_err read_pieces(struct sg_process *p, uint64_t addr, uint8_t *buf, size_t n)
{
	for (size_t done = 0; done < n;) {
		size_t k = n - done < CHAN_MAX_DATA ? n - done : CHAN_MAX_DATA;
		struct chan_msg *m = request(p, CH_REQ_MEM_READ, addr + done, k, 0);
		enum sg_err err = call(p, m);

		if (err != SG_OK)
			return err;
		if (m->len != k)
			return SG_ERR_STATE;
		memcpy(buf + done, m->data, k);
		done += k;
	}
	return SG_OK;
}

enum sg_err client_mem_read(struct sg_process *p, uint64_t addr, void *buf, size_t n)
{
	uint8_t *whole;
	enum sg_err err;

	if (n <= CHAN_MAX_DATA)
		return read_pieces(p, addr, buf, n);
	/* several pieces: a fault in a later one must leave buf untouched */
	whole = malloc(n);
	if (!whole)
		return SG_ERR_NOMEM;
	err = read_pieces(p, addr, whole, n);
	if (err == SG_OK)
		memcpy(buf, whole, n);
	free(whole);
	return err;
}

enum sg_err client_mem_write(struct sg_process *p, uint64_t addr, const void *buf,
			     size_t n)
{
	if (n > CHAN_MAX_DATA) {
		/* several pieces: all of it must be there (readable, as
		 * sg_mem_write asks) before the first is written */
		uint8_t *probe = malloc(n);
		enum sg_err err = probe ? read_pieces(p, addr, probe, n) : SG_ERR_NOMEM;

		free(probe);
		if (err != SG_OK)
			return err;
	}
	if (!n)
		return call(p, request(p, CH_REQ_MEM_WRITE, addr, 0, 0));
	for (size_t done = 0; done < n;) {
		size_t k = n - done < CHAN_MAX_DATA ? n - done : CHAN_MAX_DATA;
		struct chan_msg *m = request(p, CH_REQ_MEM_WRITE, addr + done, k, 0);
		enum sg_err err;

		memcpy(m->data, (const uint8_t *)buf + done, k);
		m->len = (uint32_t)k;
		err = call(p, m);
		if (err != SG_OK)
			return err;
		done += k;
	}
	return SG_OK;
}

enum sg_err client_mem_string(struct sg_process *p, uint64_t addr, char *buf, size_t size)
{
	size_t k = size < CHAN_MAX_DATA ? size : CHAN_MAX_DATA;
	struct chan_msg *m = request(p, CH_REQ_MEM_STRING, addr, k, 0);
	enum sg_err err = call(p, m);

	if (err != SG_OK)
		return err;
	if (!m->len || m->len > k || m->data[m->len - 1])
		return SG_ERR_STATE;
	memcpy(buf, m->data, m->len);
	return SG_OK;
}

enum sg_err client_mem_regions(struct sg_process *p, struct sg_region *out, size_t max,
			       size_t *count)
{
	size_t got = 0;

	for (;;) {
		struct chan_msg *m = request(p, CH_REQ_MEM_REGIONS, got, 0, 0);
		enum sg_err err = call(p, m);
		size_t k = m->len / sizeof(struct sg_region);

		if (err != SG_OK)
			return err;
		*count = (size_t)m->a[0];
		for (size_t i = 0; i < k && got + i < max; i++)
			memcpy(&out[got + i], m->data + i * sizeof(struct sg_region),
			       sizeof(struct sg_region));
		got += k;
		if (!k || got >= max || got >= *count)
			return SG_OK;
	}
}

enum sg_err client_mem_map(struct sg_process *p, uint64_t *addr, uint64_t size, int prot)
{
	struct chan_msg *m = request(p, CH_REQ_MEM_MAP, *addr, size, (uint64_t)prot);
	enum sg_err err = call(p, m);

	if (err == SG_OK)
		*addr = m->a[0];
	return err;
}

enum sg_err client_mem_unmap(struct sg_process *p, uint64_t addr, uint64_t size)
{
	return call(p, request(p, CH_REQ_MEM_UNMAP, addr, size, 0));
}

enum sg_err client_mem_protect(struct sg_process *p, uint64_t addr, uint64_t size,
			       int prot)
{
	return call(p, request(p, CH_REQ_MEM_PROTECT, addr, size, (uint64_t)prot));
}

/* Inside a hook, the process whose event it is learns the new set at
 * once; out of one, the first process (stopped, or not yet run). The
 * others are told without waiting: they take the set at their next
 * hooked event (docs/api.md). */
void client_hooks_changed(struct sg_process *p)
{
	struct sg_client *c = p->client;
	int now = sock_for(p);
	struct chan_msg *m;

	if (!c || c->exited)
		return;
	m = request(p, CH_REQ_HOOKS, CHAN_HOOKS_NO_REPLY, 0, 0);
	describe_hooks(p, m);
	if (c->sock >= 0 && c->sock != now)
		chan_send(c->sock, m, -1);
	for (size_t i = 0; i < c->npeers; i++)
		if (c->peers[i] != now)
			chan_send(c->peers[i], m, -1);
	m->a[0] = 0;
	call(p, m);
}

enum sg_err client_gdb_attach(struct sg_process *p, int fd, unsigned flags)
{
	return call_fd(p, request(p, CH_REQ_GDB_ATTACH, flags, 0, 0), fd);
}

void client_destroy(struct sg_process *p)
{
	client_free(p);
}
