/* The stub's own host thread: reads gdb's packets and answers them (gdb's
 * manual, "Remote Protocol"). While the guest runs it waits for a stop
 * (a guest thread's event through the eventfd) or gdb's Ctrl-C; then it
 * stops every thread (allstop.c), sends the stop reply, and serves
 * packets until a resume. docs/gdb.md lists what is supported. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/outproc.h"
#include "gdb/stub.h"
#include "hostfd/hostfd.h"
#include "mm/mm.h"
#include "signal/signal.h"

#define PACKET_SIZE 0x4000 /* what qSupported offers gdb */

/* --- sending --------------------------------------------------------- */

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* gdb went away: the reader sees it */
		buf += n;
		len -= (size_t)n;
	}
}

void gdb_send(struct gdb_stub *s, const char *body, size_t len)
{
	static char framed[2 * PACKET_SIZE + 8];
	size_t n;

	pthread_mutex_lock(&s->send_lock);
	n = rsp_frame(framed, sizeof(framed), body, len);
	if (n)
		write_all(s->fd, framed, n);
	pthread_mutex_unlock(&s->send_lock);
}

void gdb_send_str(struct gdb_stub *s, const char *body)
{
	gdb_send(s, body, strlen(body));
}

/* --- thread ids: "TID", or "pPID.TID" once gdb asked for multiprocess ------ */

/* thread id text for tid into buf */
static int fmt_tid(const struct gdb_stub *s, char *buf, size_t size, int tid)
{
	if (s->multiprocess)
		return snprintf(buf, size, "p%x.%x", (unsigned)getpid(), (unsigned)tid);
	return snprintf(buf, size, "%x", (unsigned)tid);
}

/* A thread id: -1 all, 0 any, else the tid (a whole process "pPID" is
 * all of its threads: there is one process). */
static long parse_tid(const char *text, char **end)
{
	long tid;

	if (*text == 'p') {
		long pid = strtol(text + 1, end, 16);

		if (**end != '.')
			return pid == 0 ? 0 : -1;
		text = *end + 1;
	}
	tid = strtol(text, end, 16);
	return tid < 0 ? -1 : tid;
}

/* --- signals: gdb numbers its own (gdb's signals.def) ------------------- */

static const struct { int host, gdb; } sig_map[] = {
	{ SIGHUP, 1 }, { SIGINT, 2 }, { SIGQUIT, 3 }, { SIGILL, 4 }, { SIGTRAP, 5 },
	{ SIGABRT, 6 }, { SIGFPE, 8 }, { SIGKILL, 9 }, { SIGBUS, 10 }, { SIGSEGV, 11 },
	{ SIGSYS, 12 }, { SIGPIPE, 13 }, { SIGALRM, 14 }, { SIGTERM, 15 }, { SIGURG, 16 },
	{ SIGSTOP, 17 }, { SIGTSTP, 18 }, { SIGCONT, 19 }, { SIGCHLD, 20 }, { SIGTTIN, 21 },
	{ SIGTTOU, 22 }, { SIGIO, 23 }, { SIGXCPU, 24 }, { SIGXFSZ, 25 },
	{ SIGVTALRM, 26 }, { SIGPROF, 27 }, { SIGWINCH, 28 }, { SIGUSR1, 30 },
	{ SIGUSR2, 31 }, { SIGPWR, 32 },
};
#define GDB_SIGNAL_UNKNOWN 143
#define GDB_SIGNAL_REALTIME_32 77
#define GDB_SIGNAL_REALTIME_33 45 /* 33..63 follow on from 45 */
#define GDB_SIGNAL_REALTIME_64 78

int gdb_signal_of(int sig)
{
	for (size_t i = 0; i < sizeof(sig_map) / sizeof(sig_map[0]); i++)
		if (sig_map[i].host == sig)
			return sig_map[i].gdb;
	if (sig == 32)
		return GDB_SIGNAL_REALTIME_32;
	if (sig >= 33 && sig <= 63)
		return GDB_SIGNAL_REALTIME_33 + sig - 33;
	if (sig == 64)
		return GDB_SIGNAL_REALTIME_64;
	return GDB_SIGNAL_UNKNOWN;
}

static int gdb_to_host(int g)
{
	for (size_t i = 0; i < sizeof(sig_map) / sizeof(sig_map[0]); i++)
		if (sig_map[i].gdb == g)
			return sig_map[i].host;
	if (g == GDB_SIGNAL_REALTIME_32)
		return 32;
	if (g >= GDB_SIGNAL_REALTIME_33 && g <= GDB_SIGNAL_REALTIME_33 + 30)
		return 33 + g - GDB_SIGNAL_REALTIME_33;
	if (g == GDB_SIGNAL_REALTIME_64)
		return 64;
	return 0;
}

/* Whether gdb's qSupported list (after "qSupported:") has feature, a
 * whole entry ("fork-events+" is not in "vfork-events+"). */
static bool gdb_offers(const char *pkt, const char *feature)
{
	size_t len = strlen(feature);
	const char *list = strchr(pkt, ':');

	for (const char *f = list ? list + 1 : pkt + strlen(pkt); *f;) {
		const char *end = strchr(f, ';');
		size_t flen = end ? (size_t)(end - f) : strlen(f);

		if (flen == len && !memcmp(f, feature, len))
			return true;
		f += flen + (end != NULL);
	}
	return false;
}

/* --- stopping and resuming ----------------------------------------------- */

/* Every thread parked or inside a system call. false: the process has
 * exited meanwhile (W/X went out instead). */
static bool stop_all(struct gdb_stub *s)
{
	struct sg_process *p = s->p;

	pthread_mutex_lock(&s->lock);
	s->stopping = 1;
	pthread_mutex_unlock(&s->lock);
	for (;;) {
		bool quiet = true;

		pthread_mutex_lock(&p->lock);
		for (struct sg_thread *t = p->threads; t; t = t->next) {
			if (t->debug.parked || t->debug.in_syscall)
				continue;
			quiet = false;
			cpu_request_stop(&t->cpu);
		}
		if (!p->threads || s->exit_sent)
			quiet = true;
		pthread_mutex_unlock(&p->lock);
		if (quiet)
			break;
		nanosleep(&(struct timespec){ 0, 200 * 1000 }, NULL);
	}
	return !s->exit_sent && p->threads;
}

/* The stop reply for the event (or, without one, the first thread's
 * interrupt: Ctrl-C, or the stop before the first instruction). */
static void stop_reply(struct gdb_stub *s, int no_event_signo)
{
	struct sg_process *p = s->p;
	char buf[128 + 2 * 4096];
	int n;

	pthread_mutex_lock(&p->lock);
	pthread_mutex_lock(&s->lock);
	if (!s->have_event || !gdb_thread(s, s->event.tid)) {
		/* Ctrl-C's SIGINT goes to the process: the main thread, as
		 * the kernel picks it natively, while it lives */
		struct sg_thread *t = p->main_thread && gdb_thread(s, p->main_thread->tid)
					      ? p->main_thread : gdb_thread(s, 0);

		s->have_event = true;
		s->event = (struct gdb_event){ .tid = t ? t->tid : 0,
					       .kind = GDB_STOP_INTERRUPT,
					       .signo = no_event_signo };
	}
	n = snprintf(buf, sizeof(buf), "T%02xthread:",
		     gdb_signal_of(s->event.kind == GDB_STOP_SIGNAL ||
						 s->event.kind == GDB_STOP_INTERRUPT
					 ? s->event.signo : SIGTRAP));
	n += fmt_tid(s, buf + n, sizeof(buf) - n, s->event.tid);
	n += snprintf(buf + n, sizeof(buf) - n, ";");
	switch (s->event.kind) {
	case GDB_STOP_EXEC: {
		/* the new image's path, hex: gdb loads its symbols */
		const char *path = s->p->exe_path ? s->p->exe_path : "";
		size_t len = strlen(path);

		if (n + 2 * len + 8 < sizeof(buf)) {
			n += snprintf(buf + n, sizeof(buf) - n, "exec:");
			rsp_hex(buf + n, (const uint8_t *)path, len);
			n += (int)(2 * len);
			n += snprintf(buf + n, sizeof(buf) - n, ";");
		}
		break;
	}
	case GDB_STOP_CREATE:
		n += snprintf(buf + n, sizeof(buf) - n, "create:;");
		break;
	case GDB_STOP_FORK:
	case GDB_STOP_VFORK:
		/* the child's one thread: its pid (fork events come with
		 * multiprocess ids) */
		n += snprintf(buf + n, sizeof(buf) - n, "%s:p%x.%x;",
			      s->event.kind == GDB_STOP_FORK ? "fork" : "vfork",
			      (unsigned)s->event.addr, (unsigned)s->event.addr);
		s->fork_child = (long)s->event.addr;
		break;
	case GDB_STOP_VFORKDONE:
		n += snprintf(buf + n, sizeof(buf) - n, "vforkdone:;");
		break;
	case GDB_STOP_BREAK:
		n += snprintf(buf + n, sizeof(buf) - n, "swbreak:;");
		break;
	case GDB_STOP_WATCH:
	case GDB_STOP_RWATCH:
	case GDB_STOP_AWATCH:
		n += snprintf(buf + n, sizeof(buf) - n, "%s:%" PRIx64 ";",
			      s->event.kind == GDB_STOP_WATCH ? "watch" :
			      s->event.kind == GDB_STOP_RWATCH ? "rwatch" : "awatch",
			      s->event.addr);
		break;
	}
	s->g_tid = s->c_tid = s->event.tid;
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&p->lock);
	gdb_send(s, buf, (size_t)n);
}

struct resume_action {
	char act;  /* 'c' or 's' */
	int sig;   /* host signal, 0: none */
	int tid;   /* -1: every thread */
};

/* Apply the actions (leftmost match wins; a thread with none stays
 * stopped, as vCont says) and let the threads go. */
static void resume(struct gdb_stub *s, const struct resume_action *a, unsigned n)
{
	struct sg_process *p = s->p;

	s->g_child = false; /* the next stop's packets are the parent's */
	pthread_mutex_lock(&p->lock);
	for (struct sg_thread *t = p->threads; t; t = t->next) {
		const struct resume_action *m = NULL;

		for (unsigned i = 0; i < n && !m; i++)
			if (a[i].tid == -1 || a[i].tid == t->tid)
				m = &a[i];
		t->debug.hold = m == NULL;
		t->debug.step = m && m->act == 's';
		t->debug.resume_sig = m ? m->sig : 0;
	}
	gdb_resume_all(s);
	pthread_mutex_unlock(&p->lock);
}

/* vCont;ACTION[:TID][;ACTION[:TID]]... (ACTION c, s, Csig, Ssig). */
static bool parse_vcont(const char *args, struct resume_action *a, unsigned max,
			unsigned *n)
{
	*n = 0;
	while (*args == ';' && *n < max) {
		char *end;
		struct resume_action r = { .tid = -1 };

		args++;
		r.act = (char)(*args | 0x20);
		if (r.act != 'c' && r.act != 's')
			return false;
		if (*args == 'C' || *args == 'S') {
			r.sig = gdb_to_host((int)strtol(args + 1, &end, 16));
			args = end;
		} else {
			args++;
		}
		if (*args == ':') {
			long tid = parse_tid(args + 1, &end);

			r.tid = tid <= 0 ? -1 : (int)tid;
			args = end;
		}
		a[(*n)++] = r;
	}
	return *args == 0;
}

/* --- registers and memory -------------------------------------------------- */

static struct sg_thread *reg_thread(struct gdb_stub *s)
{
	return gdb_thread(s, s->g_tid);
}

static void cmd_read_regs(struct gdb_stub *s)
{
	static char hex[2 * 1024 + 1];
	uint8_t bytes[1024];
	size_t len = 0;
	struct sg_thread *t;

	pthread_mutex_lock(&s->p->lock);
	t = reg_thread(s);
	for (unsigned n = 0; t && n < regs_count(s->abi); n++)
		len += regs_read(t, s->abi, n, bytes + len);
	pthread_mutex_unlock(&s->p->lock);
	if (!t) {
		gdb_send_str(s, "E01");
		return;
	}
	rsp_hex(hex, bytes, len);
	gdb_send(s, hex, 2 * len);
}

static void cmd_write_regs(struct gdb_stub *s, const char *hex)
{
	uint8_t bytes[1024], one[16];
	long len = rsp_unhex(bytes, sizeof(bytes), hex, strlen(hex));
	size_t off = 0;
	struct sg_thread *t;

	pthread_mutex_lock(&s->p->lock);
	t = reg_thread(s);
	for (unsigned n = 0; t && len > 0 && n < regs_count(s->abi); n++) {
		size_t sz = regs_read(t, s->abi, n, one);

		if (off + sz > (size_t)len)
			break;
		regs_write(t, s->abi, n, bytes + off);
		off += sz;
	}
	pthread_mutex_unlock(&s->p->lock);
	gdb_send_str(s, t && len >= 0 ? "OK" : "E01");
}

static void cmd_read_reg(struct gdb_stub *s, const char *args)
{
	uint8_t bytes[16];
	char hex[33];
	size_t len = 0;
	struct sg_thread *t;

	pthread_mutex_lock(&s->p->lock);
	t = reg_thread(s);
	if (t)
		len = regs_read(t, s->abi, (unsigned)strtoul(args, NULL, 16), bytes);
	pthread_mutex_unlock(&s->p->lock);
	if (!len) {
		gdb_send_str(s, "E01");
		return;
	}
	rsp_hex(hex, bytes, len);
	gdb_send(s, hex, 2 * len);
}

static void cmd_write_reg(struct gdb_stub *s, const char *args)
{
	char *eq;
	unsigned n = (unsigned)strtoul(args, &eq, 16);
	uint8_t bytes[16], cur[16];
	bool ok = false;
	struct sg_thread *t;

	if (*eq != '=')
		goto out;
	pthread_mutex_lock(&s->p->lock);
	t = reg_thread(s);
	if (t) {
		size_t sz = regs_read(t, s->abi, n, cur);

		ok = sz && rsp_unhex(bytes, sizeof(bytes), eq + 1, strlen(eq + 1)) == (long)sz &&
		     regs_write(t, s->abi, n, bytes);
	}
	pthread_mutex_unlock(&s->p->lock);
out:
	gdb_send_str(s, ok ? "OK" : "E01");
}

/* As much of [addr, addr+len) as is readable, from the start. */
static size_t read_guest(struct gdb_stub *s, uint64_t addr, uint8_t *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		size_t chunk = 4096 - ((addr + done) & 4095);

		if (chunk > len - done)
			chunk = len - done;
		if (copy_from_guest(s->p->mm, buf + done, addr + done, chunk) != 0)
			break;
		done += chunk;
	}
	return done;
}

static void cmd_read_mem(struct gdb_stub *s, const char *args)
{
	static uint8_t buf[PACKET_SIZE / 2];
	static char hex[PACKET_SIZE + 1];
	char *comma;
	uint64_t addr = strtoull(args, &comma, 16);
	size_t len = *comma == ',' ? strtoull(comma + 1, NULL, 16) : 0, got;

	if (len > sizeof(buf))
		len = sizeof(buf);
	got = read_guest(s, addr, buf, len);
	if (!got && len) {
		gdb_send_str(s, "E14"); /* EFAULT */
		return;
	}
	/* gdb sees the bytes its breakpoints' INT3s replaced */
	for (unsigned i = 0; i < s->nbp; i++)
		if (s->bps[i].addr - addr < got)
			buf[s->bps[i].addr - addr] = s->bps[i].orig;
	rsp_hex(hex, buf, got);
	gdb_send(s, hex, 2 * got);
}

/* gdb writes an INT3 with M/X for a breakpoint it cannot ask Z0 for (and
 * puts the byte back the same way): remember where, so its trap is
 * reported as the breakpoint (allstop.c). */
static void note_int3s(struct gdb_stub *s, uint64_t addr, const uint8_t *data, size_t len)
{
	for (unsigned i = 0; i < s->nint3;) {
		if (s->int3s[i] - addr < len && data[s->int3s[i] - addr] != 0xcc)
			s->int3s[i] = s->int3s[--s->nint3];
		else
			i++;
	}
	for (size_t k = 0; k < len; k++) {
		bool known = false;

		if (data[k] != 0xcc)
			continue;
		for (unsigned i = 0; i < s->nint3; i++)
			known |= s->int3s[i] == addr + k;
		if (!known && s->nint3 < GDB_MAX_INT3 && len <= 16)
			s->int3s[s->nint3++] = addr + k;
	}
}

static void write_mem(struct gdb_stub *s, uint64_t addr, const uint8_t *data, size_t len)
{
	static const uint8_t int3 = 0xcc;

	if (sg_mem_write(s->p, addr, data, len) != SG_OK) {
		gdb_send_str(s, "E14");
		return;
	}
	/* a byte under a breakpoint: the new one is what it replaced */
	for (unsigned i = 0; i < s->nbp; i++) {
		if (s->bps[i].addr - addr < len) {
			s->bps[i].orig = data[s->bps[i].addr - addr];
			sg_mem_write(s->p, s->bps[i].addr, &int3, 1);
		}
	}
	note_int3s(s, addr, data, len);
	gdb_send_str(s, "OK");
}

/* M addr,len:hex */
static void cmd_write_mem_hex(struct gdb_stub *s, const char *args)
{
	static uint8_t buf[PACKET_SIZE / 2];
	char *comma, *colon;
	uint64_t addr = strtoull(args, &comma, 16);
	size_t len = strtoull(comma + 1, &colon, 16);

	if (*comma != ',' || *colon != ':' || len > sizeof(buf) ||
	    rsp_unhex(buf, sizeof(buf), colon + 1, strlen(colon + 1)) != (long)len) {
		gdb_send_str(s, "E01");
		return;
	}
	write_mem(s, addr, buf, len);
}

/* X addr,len:binary (already unescaped) */
static void cmd_write_mem_bin(struct gdb_stub *s, const char *pkt, size_t pktlen)
{
	char *comma, *colon;
	uint64_t addr = strtoull(pkt + 1, &comma, 16);
	size_t len = strtoull(comma + 1, &colon, 16);

	if (*comma != ',' || *colon != ':' || (size_t)(colon + 1 - pkt) + len > pktlen) {
		gdb_send_str(s, "E01");
		return;
	}
	if (!len) { /* gdb's probe for X support */
		gdb_send_str(s, "OK");
		return;
	}
	write_mem(s, addr, (const uint8_t *)colon + 1, len);
}

/* --- breakpoints and watchpoints ------------------------------------------- */

static void cmd_point(struct gdb_stub *s, const char *pkt)
{
	bool insert = pkt[0] == 'Z';
	int type = pkt[1] - '0';
	char *comma;
	uint64_t addr = strtoull(pkt + 3, &comma, 16);
	unsigned kind = *comma == ',' ? (unsigned)strtoul(comma + 1, NULL, 16) : 1;
	static const int watch_kind[] = { [2] = GDB_STOP_WATCH, [3] = GDB_STOP_RWATCH,
					  [4] = GDB_STOP_AWATCH };

	if (pkt[2] != ',' || type < 0 || type > 4) {
		gdb_send_str(s, "");
		return;
	}
	if (type <= 1) { /* software or hardware breakpoint: the same here */
		static const uint8_t int3 = 0xcc;
		unsigned i = 0;

		while (i < s->nbp && s->bps[i].addr != addr)
			i++;
		if (insert && i == s->nbp) {
			/* an INT3 in the guest's code, as gdbserver does: the
			 * interpreter runs at full speed, its trap is the stop
			 * (allstop.c); gdb reads the original byte (m) */
			struct gdb_break *b = &s->bps[s->nbp];

			if (s->nbp == GDB_MAX_BREAK) {
				gdb_send_str(s, "E28"); /* ENOSPC */
				return;
			}
			b->addr = addr;
			if (read_guest(s, addr, &b->orig, 1) != 1 ||
			    sg_mem_write(s->p, addr, &int3, 1) != SG_OK) {
				gdb_send_str(s, "E14");
				return;
			}
			s->nbp++;
		} else if (!insert && i < s->nbp) {
			sg_mem_write(s->p, addr, &s->bps[i].orig, 1);
			s->bps[i] = s->bps[--s->nbp];
		}
		gdb_send_str(s, "OK");
		return;
	}
	if (kind < 1 || kind > 8) {
		gdb_send_str(s, "E22");
		return;
	}
	unsigned i = 0;

	while (i < s->nwp && !(s->wps[i].addr == addr && s->wps[i].len == kind &&
			       s->wps[i].kind == watch_kind[type]))
		i++;
	if (insert && i == s->nwp) {
		struct gdb_watch *w = &s->wps[s->nwp];

		if (s->nwp == GDB_MAX_WATCH) {
			gdb_send_str(s, "E28");
			return;
		}
		w->addr = addr;
		w->len = kind;
		w->kind = watch_kind[type];
		if (read_guest(s, addr, w->old, kind) != kind) {
			gdb_send_str(s, "E14");
			return;
		}
		s->nwp++;
		s->naccess += w->kind != GDB_STOP_WATCH;
	} else if (!insert && i < s->nwp) {
		s->naccess -= s->wps[i].kind != GDB_STOP_WATCH;
		s->wps[i] = s->wps[--s->nwp];
	}
	gdb_send_str(s, "OK");
}

/* --- queries ------------------------------------------------------------ */

/* qXfer:OBJECT:read:ANNEX:OFFSET,LENGTH over data of size len. */
static void xfer_reply(struct gdb_stub *s, const uint8_t *data, size_t size, const char *range)
{
	static char out[PACKET_SIZE];
	char *comma;
	size_t off = strtoull(range, &comma, 16);
	size_t len = *comma == ',' ? strtoull(comma + 1, NULL, 16) : 0, used, n;

	if (off >= size) {
		gdb_send_str(s, "l");
		return;
	}
	if (len > sizeof(out) - 1)
		len = sizeof(out) - 1;
	if (len > size - off)
		len = size - off;
	n = rsp_escape(out + 1, len, data + off, len, &used);
	out[0] = off + used < size ? 'm' : 'l';
	gdb_send(s, out, n + 1);
}

static void cmd_xfer_threads(struct gdb_stub *s, const char *range);

static void cmd_xfer(struct gdb_stub *s, const char *what)
{
	const struct mm_exec_info *ex;
	const char *annex;

	if (!strncmp(what, "features:read:", 14)) {
		const char *xml = tdesc_xml(s->abi);

		annex = what + 14;
		if (strncmp(annex, "target.xml:", 11)) {
			gdb_send_str(s, "E00");
			return;
		}
		xfer_reply(s, (const uint8_t *)xml, strlen(xml), annex + 11);
	} else if (!strncmp(what, "auxv:read::", 11)) {
		ex = mm_exec_info(s->p->mm);
		xfer_reply(s, ex->auxv, ex->auxv_len, what + 11);
	} else if (!strncmp(what, "siginfo:read::", 14)) {
		/* $_siginfo: the signal's siginfo in the guest's layout */
		uint8_t info[128];

		if (!s->have_event || s->event.kind != GDB_STOP_SIGNAL) {
			gdb_send_str(s, "E01");
			return;
		}
		siginfo_to_guest(&s->event.si, s->abi, info);
		xfer_reply(s, info, sizeof(info), what + 14);
	} else if (!strncmp(what, "libraries-svr4:read::", 21)) {
		/* built when gdb starts at offset 0, kept for the rest */
		if (!s->libraries || strtoull(what + 21, NULL, 16) == 0) {
			bool found;

			free(s->libraries);
			s->libraries = gdb_libraries_svr4(s, &s->libraries_len, &found);
			if (!s->libraries) {
				/* no DT_DEBUG: an error, so that gdb looks for
				 * the loader's r_debug itself (_r_debug) */
				gdb_send_str(s, found ? "E0c" : "E01"); /* ENOMEM */
				return;
			}
		}
		xfer_reply(s, (const uint8_t *)s->libraries, s->libraries_len, what + 21);
	} else if (!strncmp(what, "threads:read::", 14)) {
		cmd_xfer_threads(s, what + 14);
	} else if (!strncmp(what, "exec-file:read:", 15)) {
		const char *path = s->p->exe_path ? s->p->exe_path : "";

		annex = strchr(what + 15, ':');
		if (!annex) {
			gdb_send_str(s, "E00");
			return;
		}
		xfer_reply(s, (const uint8_t *)path, strlen(path), annex + 1);
	} else {
		gdb_send_str(s, "");
	}
}

#define GDB_MAX_LISTED 256

/* The guest's threads oldest first (p->threads is newest first): gdb
 * numbers the threads it learns of in that order, as it does natively.
 * A thread inside its exit call is gone for the guest already. Under
 * p->lock. */
static unsigned list_threads(struct gdb_stub *s, int *tids)
{
	struct sg_thread *newest_first[GDB_MAX_LISTED];
	unsigned count = 0;

	for (struct sg_thread *t = s->p->threads; t && count < GDB_MAX_LISTED; t = t->next)
		if (!t->gone)
			newest_first[count++] = t;
	for (unsigned i = 0; i < count; i++)
		tids[i] = newest_first[count - 1 - i]->tid;
	return count;
}

static void cmd_thread_list(struct gdb_stub *s, bool first)
{
	static char out[PACKET_SIZE];
	int tids[GDB_MAX_LISTED];
	unsigned count;
	size_t n = 0;

	if (!first) {
		gdb_send_str(s, "l");
		return;
	}
	out[n++] = 'm';
	pthread_mutex_lock(&s->p->lock);
	count = list_threads(s, tids);
	pthread_mutex_unlock(&s->p->lock);
	for (unsigned i = 0; i < count && n + 40 < sizeof(out); i++) {
		if (n > 1)
			out[n++] = ',';
		n += (size_t)fmt_tid(s, out + n, sizeof(out) - n, tids[i]);
	}
	gdb_send(s, out, n);
}

/* qXfer:threads:read: the same list with each thread's name (its comm:
 * the guest's, sysgate gives the host thread the guest's name), which
 * gdb shows in `info threads` and its stop messages. */
static void cmd_xfer_threads(struct gdb_stub *s, const char *range)
{
	static char xml[GDB_MAX_LISTED * 128 + 64];
	int tids[GDB_MAX_LISTED];
	unsigned count;
	size_t n;

	pthread_mutex_lock(&s->p->lock);
	count = list_threads(s, tids);
	pthread_mutex_unlock(&s->p->lock);
	n = (size_t)snprintf(xml, sizeof(xml), "<?xml version=\"1.0\"?>\n<threads>\n");
	for (unsigned i = 0; i < count; i++) {
		char path[64], comm[32] = "", id[48], name[6 * 16 + 1];
		size_t k = 0;
		ssize_t got;
		int fd;

		snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tids[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		got = fd >= 0 ? read(fd, comm, sizeof(comm) - 1) : -1;
		if (fd >= 0)
			close(fd);
		comm[got > 0 ? got : 0] = 0;
		comm[strcspn(comm, "\n")] = 0;
		for (const char *c = comm; *c && k + 7 < sizeof(name); c++) {
			const char *esc = *c == '&' ? "&amp;" : *c == '<' ? "&lt;" :
					  *c == '>' ? "&gt;" : *c == '"' ? "&quot;" : NULL;

			if (esc) {
				memcpy(name + k, esc, strlen(esc));
				k += strlen(esc);
			} else {
				name[k++] = *c;
			}
		}
		name[k] = 0;
		fmt_tid(s, id, sizeof(id), tids[i]);
		n += (size_t)snprintf(xml + n, sizeof(xml) - n,
				      "<thread id=\"%s\" name=\"%s\"/>\n", id, name);
	}
	n += (size_t)snprintf(xml + n, sizeof(xml) - n, "</threads>\n");
	xfer_reply(s, (const uint8_t *)xml, n, range);
}

static void cmd_pass_signals(struct gdb_stub *s, const char *list)
{
	s->pass_signals = 0;
	while (*list) {
		char *end;
		int sig = gdb_to_host((int)strtol(list, &end, 16));

		if (end == list)
			break;
		if (sig > 0 && sig <= 64)
			s->pass_signals |= 1ull << (sig - 1);
		list = *end == ';' ? end + 1 : end;
	}
	gdb_send_str(s, "OK");
}

static void cmd_set_thread(struct gdb_stub *s, const char *pkt)
{
	char *end;
	long tid = parse_tid(pkt + 2, &end);
	bool ok;

	/* gdb detaching a fork child names it first (to take its
	 * breakpoints out: the child did that itself) */
	s->g_child = pkt[1] == 'g' && pkt[2] == 'p' && s->fork_child &&
		     strtol(pkt + 3, NULL, 16) == s->fork_child;
	if (s->g_child) {
		gdb_send_str(s, "OK");
		return;
	}
	pthread_mutex_lock(&s->p->lock);
	ok = tid <= 0 || gdb_thread(s, (int)tid);
	pthread_mutex_unlock(&s->p->lock);
	if (ok) {
		if (pkt[1] == 'g')
			s->g_tid = (int)tid;
		else
			s->c_tid = (int)tid;
	}
	gdb_send_str(s, ok ? "OK" : "E01");
}

static void cmd_thread_alive(struct gdb_stub *s, const char *args)
{
	bool alive;

	pthread_mutex_lock(&s->p->lock);
	char *end;
	long tid = parse_tid(args, &end);

	struct sg_thread *t = tid > 0 ? gdb_thread(s, (int)tid) : NULL;

	alive = t && !t->gone;
	pthread_mutex_unlock(&s->p->lock);
	gdb_send_str(s, alive ? "OK" : "E01");
}

/* --- host I/O (vFile): gdb reads the guest's files and /proc ------------- */

/* The guest's /proc/PID/maps and /proc/PID/task/TID/maps (gdb finds the
 * vDSO's extent there) are sysgate's view of the guest's memory, not the
 * host process's: served from a memfd. Any other path is opened
 * read-only as the guest would see it (the sysroot first). */
static int vfile_open_path(struct gdb_stub *s, const char *path)
{
	unsigned long pid, tid;
	int n = 0, fd;

	if ((sscanf(path, "/proc/%lu/maps%n", &pid, &n) == 1 && n && !path[n]) ||
	    (n = 0, sscanf(path, "/proc/%lu/task/%lu/maps%n", &pid, &tid, &n) == 2 && n &&
	     !path[n])) {
		fd = memfd_create("sysgate-gdb-maps", MFD_CLOEXEC);
		if (fd < 0)
			return -1;
		if (mm_write_maps(s->p->mm, fd) != 0) {
			close(fd);
			errno = EIO;
			return -1;
		}
		return fd;
	}
	if (s->p->sysroot && path[0] == '/') {
		char rooted[4096];

		snprintf(rooted, sizeof(rooted), "%s%s", s->p->sysroot, path);
		fd = open(rooted, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			return fd;
	}
	return open(path, O_RDONLY | O_CLOEXEC);
}

static void vfile_errno(struct gdb_stub *s, int err)
{
	char buf[32];

	/* gdb's File-I/O errno values are the Linux ones for these */
	snprintf(buf, sizeof(buf), "F-1,%x", err == ENOENT || err == EACCES || err == EBADF ||
				       err == EINVAL || err == EISDIR ? err : EIO);
	gdb_send_str(s, buf);
}

static void cmd_vfile(struct gdb_stub *s, const char *pkt)
{
	static char out[PACKET_SIZE];
	char buf[32];

	if (!strncmp(pkt, "setfs:", 6)) {
		gdb_send_str(s, "F0");
	} else if (!strncmp(pkt, "open:", 5)) {
		char path[4096];
		const char *comma = strchr(pkt + 5, ',');
		long n = comma ? rsp_unhex((uint8_t *)path, sizeof(path) - 1, pkt + 5,
					   (size_t)(comma - pkt - 5)) : -1;
		unsigned long flags = comma ? strtoul(comma + 1, NULL, 16) : 1;
		unsigned slot = 0;
		int fd;

		while (slot < GDB_MAX_VFILE && s->vfiles[slot] >= 0)
			slot++;
		if (n < 0 || (flags & 3) != 0) { /* gdb's O_RDONLY is 0 */
			vfile_errno(s, n < 0 ? EINVAL : EACCES);
			return;
		}
		if (slot == GDB_MAX_VFILE) {
			vfile_errno(s, EIO);
			return;
		}
		path[n] = 0;
		fd = vfile_open_path(s, path);
		if (fd < 0) {
			vfile_errno(s, errno);
			return;
		}
		/* sysgate's own descriptor: out of the guest's reach */
		s->vfiles[slot] = hostfd_dup(fd, &s->vfiles[slot]);
		close(fd);
		if (s->vfiles[slot] < 0) {
			vfile_errno(s, EIO);
			return;
		}
		snprintf(buf, sizeof(buf), "F%x", slot);
		gdb_send_str(s, buf);
	} else if (!strncmp(pkt, "pread:", 6)) {
		static uint8_t data[PACKET_SIZE / 2];
		char *end;
		unsigned long slot = strtoul(pkt + 6, &end, 16);
		size_t count = *end == ',' ? strtoul(end + 1, &end, 16) : 0;
		off_t off = *end == ',' ? (off_t)strtoull(end + 1, NULL, 16) : 0;
		ssize_t got;
		size_t used, n;
		int hdr;

		if (slot >= GDB_MAX_VFILE || s->vfiles[slot] < 0) {
			vfile_errno(s, EBADF);
			return;
		}
		if (count > sizeof(data))
			count = sizeof(data);
		got = pread(s->vfiles[slot], data, count, off);
		if (got < 0) {
			vfile_errno(s, errno);
			return;
		}
		/* escaping may not fit all of it: say how much did */
		n = rsp_escape(out + 24, sizeof(out) - 24, data, (size_t)got, &used);
		hdr = snprintf(buf, sizeof(buf), "F%zx;", used);
		memmove(out + hdr, out + 24, n);
		memcpy(out, buf, (size_t)hdr);
		gdb_send(s, out, (size_t)hdr + n);
	} else if (!strncmp(pkt, "close:", 6)) {
		unsigned long slot = strtoul(pkt + 6, NULL, 16);

		if (slot >= GDB_MAX_VFILE || s->vfiles[slot] < 0) {
			vfile_errno(s, EBADF);
			return;
		}
		hostfd_close(s->vfiles[slot]);
		s->vfiles[slot] = -1;
		gdb_send_str(s, "F0");
	} else {
		gdb_send_str(s, "");
	}
}

/* --- detach and kill -------------------------------------------------------- */

static void let_go(struct gdb_stub *s)
{
	struct sg_process *p = s->p;

	pthread_mutex_lock(&p->lock);
	pthread_mutex_lock(&s->lock);
	gdb_breakpoints_restore(s);
	s->nwp = s->naccess = 0;
	s->detached = true;
	p->embed->debug_steps = 0;
	for (struct sg_thread *t = p->threads; t; t = t->next) {
		t->debug.step = t->debug.hold = false;
		t->debug.stop_kind = GDB_STOP_NONE;
	}
	s->stopping = 0;
	s->resume_gen++;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&p->lock);
}

/* --- the command loop ----------------------------------------------------- */

/* One packet while stopped: true when it resumed the guest. */
static bool handle(struct gdb_stub *s, char *pkt, size_t len)
{
	struct resume_action acts[16];
	unsigned nacts;
	char buf[512];

	switch (pkt[0]) {
	case '?':
		stop_reply(s, SIGTRAP);
		return false;
	case 'g':
		cmd_read_regs(s);
		return false;
	case 'G':
		cmd_write_regs(s, pkt + 1);
		return false;
	case 'p':
		cmd_read_reg(s, pkt + 1);
		return false;
	case 'P':
		cmd_write_reg(s, pkt + 1);
		return false;
	case 'm':
		cmd_read_mem(s, pkt + 1);
		return false;
	case 'M':
		cmd_write_mem_hex(s, pkt + 1);
		return false;
	case 'X':
		cmd_write_mem_bin(s, pkt, len);
		return false;
	case 'Z':
	case 'z':
		if (s->g_child) /* the fork child's: it has none left */
			gdb_send_str(s, "OK");
		else
			cmd_point(s, pkt);
		return false;
	case 'H':
		cmd_set_thread(s, pkt);
		return false;
	case 'T':
		cmd_thread_alive(s, pkt + 1);
		return false;
	case 'c':
	case 's':
	case 'C':
	case 'S': {
		/* the old resume packets: the Hc thread (or the event's) does
		 * it, every other thread continues */
		struct resume_action a[2];
		char act = (char)(pkt[0] | 0x20);
		int sig = 0;

		if (pkt[0] == 'C' || pkt[0] == 'S')
			sig = gdb_to_host((int)strtol(pkt + 1, NULL, 16));
		a[0] = (struct resume_action){ act, sig, s->c_tid > 0 ? s->c_tid : s->event.tid };
		a[1] = (struct resume_action){ 'c', 0, -1 };
		resume(s, a, 2);
		return true;
	}
	case 'k':
		kill(getpid(), SIGKILL);
		return false;
	case 'D':
		gdb_send_str(s, "OK");
		/* D;PID of a fork child: it let go of gdb at the fork */
		if (pkt[1] != ';' || strtoul(pkt + 2, NULL, 16) == (unsigned long)getpid()) {
			let_go(s);
			/* the parent detached while its fork child was not:
			 * gdb follows the child (follow-fork-mode child),
			 * which has let go of gdb; closing the connection
			 * ends gdb's wait for it */
			if (s->fork_child)
				shutdown(s->fd, SHUT_RDWR);
		} else {
			s->g_child = false; /* packets are the parent's again */
			s->fork_child = 0;
		}
		return false;
	case 'v':
		if (!strcmp(pkt, "vCont?")) {
			gdb_send_str(s, "vCont;c;C;s;S");
		} else if (!strncmp(pkt, "vCont;", 6)) {
			if (parse_vcont(pkt + 5, acts, 16, &nacts)) {
				resume(s, acts, nacts);
				return true;
			}
			gdb_send_str(s, "E01");
		} else if (!strncmp(pkt, "vFile:", 6)) {
			cmd_vfile(s, pkt + 6);
		} else if (!strncmp(pkt, "vKill", 5)) {
			gdb_send_str(s, "OK");
			kill(getpid(), SIGKILL);
		} else {
			gdb_send_str(s, ""); /* vMustReplyEmpty and the unknown */
		}
		return false;
	case 'q':
		if (!strncmp(pkt, "qSupported", 10)) {
			/* multiprocess: gdb then knows the pid (it reads
			 * /proc/PID/maps for the vDSO) */
			s->multiprocess = gdb_offers(pkt, "multiprocess+");
			s->exec_events = gdb_offers(pkt, "exec-events+");
			/* a fork child is named by its pid: multiprocess ids */
			s->fork_events = s->multiprocess && gdb_offers(pkt, "fork-events+");
			s->vfork_events = s->multiprocess && gdb_offers(pkt, "vfork-events+");
			snprintf(buf, sizeof(buf),
				 "PacketSize=%x;qXfer:features:read+;qXfer:auxv:read+;"
				 "qXfer:exec-file:read+;qXfer:libraries-svr4:read+;"
				 "qXfer:threads:read+;qXfer:siginfo:read+;"
				 "QStartNoAckMode+;QThreadEvents+;"
				 "QPassSignals+;"
				 "swbreak+;vContSupported+%s%s%s%s", PACKET_SIZE,
				 s->multiprocess ? ";multiprocess+" : "",
				 s->exec_events ? ";exec-events+" : "",
				 s->fork_events ? ";fork-events+" : "",
				 s->vfork_events ? ";vfork-events+" : "");
			gdb_send_str(s, buf);
		} else if (!strncmp(pkt, "qXfer:", 6)) {
			cmd_xfer(s, pkt + 6);
		} else if (!strncmp(pkt, "qAttached", 9)) {
			gdb_send_str(s, "0"); /* we started it: quitting kills it */
		} else if (!strcmp(pkt, "qC")) {
			memcpy(buf, "QC", 2);
			fmt_tid(s, buf + 2, sizeof(buf) - 2, s->event.tid);
			gdb_send_str(s, buf);
		} else if (!strcmp(pkt, "qfThreadInfo")) {
			cmd_thread_list(s, true);
		} else if (!strcmp(pkt, "qsThreadInfo")) {
			cmd_thread_list(s, false);
		} else if (!strncmp(pkt, "qSymbol", 7)) {
			gdb_send_str(s, "OK");
		} else {
			gdb_send_str(s, "");
		}
		return false;
	case 'Q':
		if (!strcmp(pkt, "QStartNoAckMode")) {
			gdb_send_str(s, "OK");
			s->no_ack = true;
		} else if (!strncmp(pkt, "QPassSignals:", 13)) {
			cmd_pass_signals(s, pkt + 13);
		} else if (!strcmp(pkt, "QThreadEvents:1") || !strcmp(pkt, "QThreadEvents:0")) {
			s->thread_events = pkt[14] == '1';
			gdb_send_str(s, "OK");
		} else {
			gdb_send_str(s, "");
		}
		return false;
	default:
		gdb_send_str(s, "");
		return false;
	}
}

static void *server_main(void *arg)
{
	struct gdb_stub *s = arg;
	bool running = false;
	char in[4096];

	/* stopped before the first instruction: the main thread parks as
	 * soon as sg_run starts it */
	stop_all(s);
	if (s->after_exec) {
		/* gdb waits for the stop of the resume that ran the execve */
		struct sg_thread *t = s->p->main_thread;

		s->have_event = true;
		s->event = (struct gdb_event){ .tid = t->tid, .kind = GDB_STOP_EXEC,
					       .signo = SIGTRAP };
		stop_reply(s, SIGTRAP);
	}
	for (;;) {
		struct pollfd pf[2] = { { s->fd, POLLIN, 0 }, { s->wake, POLLIN, 0 } };
		ssize_t got;

		if (poll(pf, running ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (running && (pf[1].revents & POLLIN)) {
			uint64_t v;

			if (read(s->wake, &v, sizeof(v)) < 0) {
				/* drained by an earlier read */
			}
			if (stop_all(s))
				stop_reply(s, SIGTRAP);
			running = false;
			continue;
		}
		if (!(pf[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		got = read(s->fd, in, sizeof(in));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break; /* gdb is gone */
		for (ssize_t i = 0; i < got; i++) {
			enum rsp_event e = rsp_feed(&s->rd, in[i]);

			if (e == RSP_INTERRUPT && running) {
				if (stop_all(s))
					stop_reply(s, SIGINT);
				running = false;
			} else if (e == RSP_BAD_CHECKSUM && !s->no_ack) {
				write_all(s->fd, "-", 1);
			} else if (e == RSP_PACKET) {
				if (!s->no_ack)
					write_all(s->fd, "+", 1);
				if (running) {
					if (!strcmp(s->rd.buf, "vCtrlC")) {
						gdb_send_str(s, "OK");
						if (stop_all(s))
							stop_reply(s, SIGINT);
						running = false;
					}
					continue; /* nothing else is valid while running */
				}
				running = handle(s, s->rd.buf, s->rd.len);
				if (s->detached)
					goto out;
			}
		}
	}
out:
	if (s->closing)
		return NULL; /* sg_destroy: p is going; it closes fd */
	if (!s->detached)
		let_go(s); /* gdb went away: the guest runs on */
	return NULL;
}

void gdb_breakpoints_restore(struct gdb_stub *s)
{
	while (s->nbp) {
		const struct gdb_break *b = &s->bps[--s->nbp];

		sg_mem_write(s->p, b->addr, &b->orig, 1);
	}
}

/* sg_destroy: end the stub's thread before p goes (shutdown wakes its
 * poll or read), then its descriptors and state. */
void gdb_stub_destroy(struct sg_process *p)
{
	struct gdb_stub *s = p->embed->debug_state;

	s->closing = true;
	shutdown(s->fd, SHUT_RDWR);
	pthread_join(s->server, NULL);
	for (unsigned i = 0; i < GDB_MAX_VFILE; i++)
		if (s->vfiles[i] >= 0)
			hostfd_close(s->vfiles[i]);
	hostfd_close(s->fd);
	hostfd_close(s->wake);
	free(s->libraries);
	p->embed->debugger = NULL;
	p->embed->debug_state = NULL;
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->send_lock);
	free(s);
}

SG_API enum sg_err sg_gdb_attach(sg_process *p, int fd, unsigned flags)
{
	struct gdb_stub *s;

	if (!p || !p->loaded || fd < 0)
		return SG_ERR_INVAL;
	if (p->client) /* a guest in a process of its own: the stub runs there */
		return client_gdb_attach(p, fd, flags);
	if (!p->embed || p->embed->debugger)
		return SG_ERR_STATE;
	s = calloc(1, sizeof(*s));
	if (!s)
		return SG_ERR_NOMEM;
	s->p = p;
	s->abi = p->abi;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	pthread_mutex_init(&s->send_lock, NULL);
	s->fd = hostfd_dup(fd, &s->fd);
	int ev = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	s->wake = ev < 0 ? -1 : hostfd_dup(ev, &s->wake);
	if (ev >= 0)
		close(ev);
	if (s->fd < 0 || s->wake < 0) {
		if (s->fd >= 0)
			hostfd_close(s->fd);
		if (s->wake >= 0)
			hostfd_close(s->wake);
		free(s);
		return SG_ERR_NOMEM;
	}
	for (unsigned i = 0; i < GDB_MAX_VFILE; i++)
		s->vfiles[i] = -1;
	s->after_exec = flags & SG_GDB_AFTER_EXEC;
	s->exec_events = s->after_exec;
	s->no_ack = flags & SG_GDB_NO_ACK;
	s->multiprocess = flags & SG_GDB_MULTIPROCESS;
	s->fork_events = flags & SG_GDB_FORK_EVENTS;
	s->vfork_events = flags & SG_GDB_VFORK_EVENTS;
	s->thread_events = flags & SG_GDB_THREAD_EVENTS;
	s->stopping = 1; /* before the first instruction */
	p->embed->debug_state = s;
	p->embed->debugger = &gdb_debugger;
	/* the stub's thread takes none of the guest's signals: a host
	 * thread without a guest thread would drop them */
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&s->server, NULL, server_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		p->embed->debugger = NULL;
		return SG_ERR_NOMEM;
	}
	return SG_OK; /* joined by sg_destroy (gdb_stub_destroy) */
}
