/* Converters between host structures and the i386 / x32 guest forms.
 * Semantics follow the kernel's compat code: narrow field by field, report
 * -EOVERFLOW where the kernel does, truncate where it truncates. */
#include <errno.h>
#include <string.h>

#include "syscall/compat/compat.h"

#define COMPAT_OFF_T_MAX 0x7fffffffll

int put_compat_stat(struct compat_stat *out, const struct stat *st)
{
	struct compat_stat c;

	memset(&c, 0, sizeof(c));
	c.st_dev = (uint32_t)st->st_dev;
	c.st_ino = (uint32_t)st->st_ino;
	if (c.st_ino != st->st_ino)
		return -EOVERFLOW;
	c.st_mode = (uint16_t)st->st_mode;
	c.st_nlink = (uint16_t)st->st_nlink;
	if (c.st_nlink != st->st_nlink)
		return -EOVERFLOW;
	c.st_uid = compat_high2low_id(st->st_uid);
	c.st_gid = compat_high2low_id(st->st_gid);
	c.st_rdev = (uint32_t)st->st_rdev;
	if ((uint64_t)st->st_size > COMPAT_OFF_T_MAX)
		return -EOVERFLOW;
	c.st_size = (uint32_t)st->st_size;
	c.st_atime_ = (uint32_t)st->st_atim.tv_sec;
	c.st_atime_nsec = (uint32_t)st->st_atim.tv_nsec;
	c.st_mtime_ = (uint32_t)st->st_mtim.tv_sec;
	c.st_mtime_nsec = (uint32_t)st->st_mtim.tv_nsec;
	c.st_ctime_ = (uint32_t)st->st_ctim.tv_sec;
	c.st_ctime_nsec = (uint32_t)st->st_ctim.tv_nsec;
	c.st_blocks = (uint32_t)st->st_blocks;
	c.st_blksize = (uint32_t)st->st_blksize;
	*out = c;
	return 0;
}

void put_compat_stat64(struct compat_stat64 *out, const struct stat *st)
{
	out->st_dev = (uint32_t)st->st_dev;
	out->st_ino32 = (uint32_t)st->st_ino;
	out->st_ino = st->st_ino;
	out->st_mode = st->st_mode;
	out->st_nlink = (uint32_t)st->st_nlink;
	out->st_uid = st->st_uid;
	out->st_gid = st->st_gid;
	out->st_rdev = (uint32_t)st->st_rdev;
	out->st_size = st->st_size;
	out->st_atime_ = (uint32_t)st->st_atim.tv_sec;
	out->st_atime_nsec = (uint32_t)st->st_atim.tv_nsec;
	out->st_mtime_ = (uint32_t)st->st_mtim.tv_sec;
	out->st_mtime_nsec = (uint32_t)st->st_mtim.tv_nsec;
	out->st_ctime_ = (uint32_t)st->st_ctim.tv_sec;
	out->st_ctime_nsec = (uint32_t)st->st_ctim.tv_nsec;
	out->st_blksize = (uint32_t)st->st_blksize;
	out->st_blocks = (uint64_t)st->st_blocks;
}

void get_compat_timespec(struct timespec *ts, const struct compat_timespec *c)
{
	ts->tv_sec = c->tv_sec;
	ts->tv_nsec = c->tv_nsec;
}

void put_compat_timespec(struct compat_timespec *c, const struct timespec *ts)
{
	c->tv_sec = (int32_t)ts->tv_sec;
	c->tv_nsec = (int32_t)ts->tv_nsec;
}

void put_compat_timeval(struct compat_timeval *c, const struct timeval *tv)
{
	c->tv_sec = (int32_t)tv->tv_sec;
	c->tv_usec = (int32_t)tv->tv_usec;
}

void put_compat_rlimit(struct compat_rlimit *c, const struct rlimit *r,
		       uint32_t infinity)
{
	c->rlim_cur = r->rlim_cur > infinity ? infinity : (uint32_t)r->rlim_cur;
	c->rlim_max = r->rlim_max > infinity ? infinity : (uint32_t)r->rlim_max;
}

void get_compat_rlimit(struct rlimit *r, const struct compat_rlimit *c)
{
	r->rlim_cur = c->rlim_cur == COMPAT_RLIM_INFINITY ? RLIM_INFINITY
							  : c->rlim_cur;
	r->rlim_max = c->rlim_max == COMPAT_RLIM_INFINITY ? RLIM_INFINITY
							  : c->rlim_max;
}

/* Widening needs no checks: both i386 flock layouts fit a host flock. */
#define GET_COMPAT_FLOCK(f, c)                  \
	do {                                    \
		memset((f), 0, sizeof(*(f)));   \
		(f)->l_type = (c)->l_type;      \
		(f)->l_whence = (c)->l_whence;  \
		(f)->l_start = (c)->l_start;    \
		(f)->l_len = (c)->l_len;        \
		(f)->l_pid = (c)->l_pid;        \
	} while (0)

void get_compat_flock(struct flock *f, const struct compat_flock *c)
{
	GET_COMPAT_FLOCK(f, c);
}

int put_compat_flock(struct compat_flock *c, const struct flock *f)
{
	if (f->l_start > COMPAT_OFF_T_MAX)
		return -EOVERFLOW;
	memset(c, 0, sizeof(*c));
	c->l_type = f->l_type;
	c->l_whence = f->l_whence;
	c->l_start = (int32_t)f->l_start;
	c->l_len = f->l_len > COMPAT_OFF_T_MAX ? (int32_t)COMPAT_OFF_T_MAX
					       : (int32_t)f->l_len;
	c->l_pid = f->l_pid;
	return 0;
}

void get_compat_flock64(struct flock *f, const struct compat_flock64 *c)
{
	GET_COMPAT_FLOCK(f, c);
}

void put_compat_flock64(struct compat_flock64 *c, const struct flock *f)
{
	memset(c, 0, sizeof(*c));
	c->l_type = f->l_type;
	c->l_whence = f->l_whence;
	c->l_start = f->l_start;
	c->l_len = f->l_len;
	c->l_pid = f->l_pid;
}
