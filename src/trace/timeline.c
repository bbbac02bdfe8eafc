/* --trace-timeline=FILE: the run as Chrome trace-event JSON (the format
 * chrome://tracing and Perfetto open): a track per thread named by pid,
 * tid and program, a complete ("X") slice per system call named by its
 * strace line, signals and faults as instant ("i") events, process and
 * thread exits as instant events, clone/fork as flow ("s"/"f") events
 * from the parent's call to the child's track. FILE ending in .html: a
 * self-contained page (timeline_html.c) drawing the same events and the
 * -c summary. docs/trace-format.md, "Timeline".
 *
 * Every traced process (forks, execve'd images) appends to one file with
 * O_APPEND, one write(2) per event; the first process starts the array
 * and closes it when it ends. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "hostfd/hostfd.h"
#include "trace/trace_internal.h"

/* The tid whose metadata (track name) this process has written. */
static __thread int named_tid;

static int my_tid(void)
{
	return (int)syscall(SYS_gettid);
}

uint64_t timeline_now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static bool html_path(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && !strcmp(path + n - 5, ".html");
}

/* The file the events go to: FILE itself, or FILE.events for the page. */
static void events_path(const struct trace *tr, char *out, size_t size)
{
	snprintf(out, size, "%s%s", tr->tl_path, html_path(tr->tl_path) ? ".events" : "");
}

static void put_event(struct trace *tr, struct tline *l)
{
	trace_write_fd(tr->tl_fd, l->buf, l->len);
}

/* A JSON string of n bytes (the lines are ASCII: strace's quoting). */
static void json_str(struct tline *l, const char *s, size_t n)
{
	tl_putc(l, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			tl_printf(l, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f || c == '<') /* '<': HTML-safe */
			tl_printf(l, "\\u%04x", c);
		else
			tl_putc(l, (char)c);
	}
	tl_putc(l, '"');
}

static void begin_event(struct tline *l, const char *ph, uint64_t ns)
{
	tl_printf(l, ",\n{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%llu.%03u", ph,
		  (int)getpid(), my_tid(), (unsigned long long)(ns / 1000),
		  (unsigned)(ns % 1000));
}

/* The thread's track: its name once per thread and process image. */
static void name_track(struct trace *tr)
{
	struct tline l = { .len = 0 };
	char comm[64] = "", path[64], label[sizeof(comm) + 32];
	int fd;
	ssize_t n;

	if (named_tid == my_tid())
		return;
	named_tid = my_tid();
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", named_tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, comm, sizeof(comm) - 1);
		comm[n > 0 ? n : 0] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		close(fd);
	}
	snprintf(label, sizeof(label), "%s %d/%d", comm, (int)getpid(), named_tid);
	begin_event(&l, "M", 0);
	tl_puts(&l, ",\"name\":\"thread_name\",\"args\":{\"name\":");
	json_str(&l, label, strlen(label));
	tl_puts(&l, "}}");
	if (named_tid == (int)getpid()) {
		begin_event(&l, "M", 0);
		tl_puts(&l, ",\"name\":\"process_name\",\"args\":{\"name\":");
		snprintf(label, sizeof(label), "%s (pid %d)", comm, (int)getpid());
		json_str(&l, label, strlen(label));
		tl_puts(&l, "}}");
	}
	put_event(tr, &l);
}

int timeline_open(struct trace *tr, const char *path, bool inherited)
{
	char file[PATH_MAX + 16];
	int fd;

	tr->tl_fd = -1;
	if (!(tr->tl_path = strdup(path)))
		return -1;
	events_path(tr, file, sizeof(file));
	fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (inherited ? 0 : O_TRUNC),
		  0666);
	if (fd < 0)
		return -1;
	tr->tl_fd = hostfd_dup(fd, &tr->tl_fd); /* out of the guest's way */
	close(fd);
	if (tr->tl_fd < 0)
		return -1;
	if (!inherited) {
		/* the array's first element: the trace's own metadata */
		struct tline l = { .len = 0 };

		tl_printf(&l, "[{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"ts\":0,"
			  "\"name\":\"process_labels\",\"args\":{\"labels\":\"sysgate --trace-timeline\"}}",
			  (int)getpid(), my_tid());
		put_event(tr, &l);
	}
	return 0;
}

/* A system call: its strace line as the name, [start, end]. A fork's
 * result starts a flow to the child's track. */
void timeline_syscall(struct trace *tr, const struct sg_syscall_call *call,
		      const char *line, size_t len, uint64_t start_ns, uint64_t end_ns,
		      bool forked)
{
	static __thread struct tline l;
	const struct sg_syscall_table *tab = sg_syscall_table(call->table);

	name_track(tr);
	if (len > 1024) /* escaped, it still fits the event (and stays JSON) */
		len = 1024;
	l.len = 0;
	l.col0 = 0;
	begin_event(&l, "X", start_ns);
	tl_printf(&l, ",\"dur\":%llu.%03u,\"cat\":\"syscall\",\"name\":",
		  (unsigned long long)((end_ns - start_ns) / 1000),
		  (unsigned)((end_ns - start_ns) % 1000));
	json_str(&l, line, len);
	tl_printf(&l, ",\"args\":{\"call\":\"%s\",\"abi\":\"%s\",\"result\":%ld}}",
		  call->row ? call->row->name : "?", tab ? tab->abi_name : "?", call->result);
	if (forked && call->result > 0) {
		/* from the call's start (the child may run before the call
		 * returns); the child's first event ends it */
		begin_event(&l, "s", start_ns);
		tl_printf(&l, ",\"cat\":\"task\",\"name\":\"%s\",\"id\":%ld}",
			  call->row ? call->row->name : "clone", call->result);
	}
	put_event(tr, &l);
}

/* A new task's first event: the end of the flow its creator started. */
void timeline_task_start(struct trace *tr, uint64_t ns)
{
	struct tline l = { .len = 0 };

	name_track(tr);
	begin_event(&l, "f", ns);
	tl_printf(&l, ",\"bp\":\"e\",\"cat\":\"task\",\"name\":\"start\",\"id\":%d}", my_tid());
	put_event(tr, &l);
}

/* A signal, a fault, an exit: an instant event on the thread's track. */
void timeline_instant(struct trace *tr, const char *cat, const char *text, size_t len)
{
	struct tline l = { .len = 0 };

	name_track(tr);
	if (len > 1024)
		len = 1024;
	begin_event(&l, "i", timeline_now_ns());
	tl_printf(&l, ",\"s\":\"t\",\"cat\":\"%s\",\"name\":", cat);
	json_str(&l, text, len);
	tl_puts(&l, "}");
	put_event(tr, &l);
}

/* The first process ends: close the array; for FILE.html, write the page
 * around the events and remove the events file. */
void timeline_finish(struct trace *tr)
{
	char file[PATH_MAX + 16];
	struct tline l = { .len = 0 };

	tl_puts(&l, "\n]\n");
	put_event(tr, &l);
	if (!html_path(tr->tl_path))
		return;
	events_path(tr, file, sizeof(file));
	if (timeline_write_html(tr->tl_path, file) == 0)
		unlink(file);
}

void timeline_close(struct trace *tr)
{
	if (tr->tl_fd >= 0)
		hostfd_close(tr->tl_fd);
	tr->tl_fd = -1;
	free(tr->tl_path);
	tr->tl_path = NULL;
}
