/* The stub's state, shared by the protocol side (server.c, the stub's own
 * host thread) and the run-loop side (allstop.c, on the guest threads).
 *
 * Locks: p->lock before s->lock, never the other way round (thread_finish
 * calls the exit hook under p->lock). Breakpoints and watchpoints change
 * only while every guest thread is parked or inside a system call. */
#ifndef SG_GDB_STUB_H
#define SG_GDB_STUB_H

#include "core/embed.h"
#include "core/process.h"
#include "gdb/gdb.h"
#include <signal.h>

#define GDB_MAX_BREAK 256
#define GDB_MAX_WATCH 16
#define GDB_MAX_INT3 256
#define GDB_MAX_VFILE 4   /* files gdb has open (vFile): sysgate's own fds */

struct gdb_watch {
	uint64_t addr;
	unsigned len;         /* 1..8 */
	int kind;             /* GDB_STOP_WATCH, _RWATCH, _AWATCH */
	uint8_t old[8];       /* the value last seen: a write changes it */
};

/* One stop to report: the thread and why. */
struct gdb_event {
	int tid;
	int kind;             /* enum gdb_stop_kind */
	int signo;
	uint64_t addr;        /* watchpoint address; a fork's child pid */
	siginfo_t si;         /* GDB_STOP_SIGNAL: what the guest would get */
};

struct gdb_stub {
	struct sg_process *p;
	enum sg_abi abi;
	int fd;               /* the connection (a hostfd: out of the guest's reach) */
	int wake;             /* eventfd: a guest thread has a stop to report */
	pthread_t server;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_mutex_t send_lock; /* one packet at a time on fd */

	volatile int stopping;      /* threads park at their next checkpoint */
	unsigned long resume_gen;   /* parked threads wait for it to change */
	bool have_event;
	struct gdb_event event;
	volatile bool detached;     /* no debugger any more: hooks do nothing */
	bool exit_sent;
	volatile bool closing;      /* sg_destroy: the stub's thread ends */

	struct gdb_break {
		uint64_t addr;
		uint8_t orig;  /* the byte the INT3 replaced */
	} bps[GDB_MAX_BREAK];
	unsigned nbp;
	struct gdb_watch wps[GDB_MAX_WATCH];
	unsigned nwp;
	unsigned naccess;           /* of them read or access watchpoints */
	uint64_t int3s[GDB_MAX_INT3]; /* where gdb wrote an INT3 with M/X */
	unsigned nint3;
	uint64_t pass_signals;      /* QPassSignals: bit n-1, delivered unreported */

	int g_tid, c_tid;           /* Hg, Hc: 0 any, -1 all */
	int vfiles[GDB_MAX_VFILE];  /* vFile:open's descriptors; -1: free */
	bool no_ack;
	bool multiprocess;          /* thread ids as pPID.TID */
	bool exec_events;           /* gdb takes exec stops: the connection
				       goes on into an exec'd image */
	bool after_exec;            /* this image was exec'd under gdb */
	bool fork_events, vfork_events; /* gdb takes fork stops (and detaches
				       the child itself) */
	bool thread_events;         /* QThreadEvents:1: create stops */
	bool steps_requested;       /* the last resume stepped a thread */
	long fork_child;            /* the pid of the last fork reported */
	bool g_child;               /* Hg named that child: packets for it */
	char *libraries;            /* qXfer:libraries-svr4's XML being read */
	size_t libraries_len;
	struct rsp_reader rd;
};

/* allstop.c */
extern const struct sg_debugger gdb_debugger;
/* Park the calling guest thread until gdb resumes it; ev (may be NULL)
 * is its own stop, reported if it is the first. */
void gdb_park(struct gdb_stub *s, struct sg_thread *t, const struct gdb_event *ev);
/* A thread of p by tid (0 or -1: the first), under p->lock. */
struct sg_thread *gdb_thread(struct gdb_stub *s, int tid);
/* Resume: per thread, step or not and the signal to deliver; the
 * generation moves on and parked threads go. Under p->lock. */
void gdb_resume_all(struct gdb_stub *s);

/* Put back the bytes every Z0 breakpoint's INT3 replaced (detach, a fork
 * child); the breakpoints are forgotten. */
void gdb_breakpoints_restore(struct gdb_stub *s);

/* accesses.c: the read/access watchpoint the instruction at pc touches
 * (GDB_STOP_RWATCH/_AWATCH, *addr), or GDB_STOP_NONE */
int gdb_access_hit(struct gdb_stub *s, struct sg_thread *t, uint64_t pc, uint64_t *addr);

/* libraries.c: qXfer:libraries-svr4's XML from the guest's r_debug and
 * link_map chain (malloc'd, *len bytes). NULL with *found false: the
 * program has no DT_DEBUG (static, or the loader run as the program);
 * NULL with *found true: out of memory. */
char *gdb_libraries_svr4(const struct gdb_stub *s, size_t *len, bool *found);

/* server.c */
int gdb_signal_of(int host_signo);
void gdb_stub_destroy(struct sg_process *p);
void gdb_send(struct gdb_stub *s, const char *body, size_t len);
void gdb_send_str(struct gdb_stub *s, const char *body);

#endif
