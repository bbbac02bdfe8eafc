/* File-system structures of i386: the old stat, statfs and statfs64,
 * utimbuf, XFS quota statistics. Narrowing follows the kernel's compat
 * copy-out: -EOVERFLOW where a value does not fit, as cp_old_stat and
 * put_compat_statfs. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <linux/dqblk_xfs.h>

#include "syscall/compat/compat.h"

#define COMPAT_OFF_T_MAX 0x7fffffffll

static uint16_t old_encode_dev(dev_t dev)
{
	return (uint16_t)((major(dev) << 8) | (minor(dev) & 0xff));
}

int put_compat_old_stat(struct compat_old_stat *c, const struct stat *st)
{
	struct compat_old_stat o;

	memset(&o, 0, sizeof(o));
	o.st_dev = old_encode_dev(st->st_dev);
	o.st_ino = (uint16_t)st->st_ino;
	if (o.st_ino != st->st_ino)
		return -EOVERFLOW;
	o.st_mode = (uint16_t)st->st_mode;
	o.st_nlink = (uint16_t)st->st_nlink;
	if (o.st_nlink != st->st_nlink)
		return -EOVERFLOW;
	o.st_uid = compat_high2low_id(st->st_uid);
	o.st_gid = compat_high2low_id(st->st_gid);
	o.st_rdev = old_encode_dev(st->st_rdev);
	if (st->st_size > COMPAT_OFF_T_MAX)
		return -EOVERFLOW;
	o.st_size = (uint32_t)st->st_size;
	o.st_atime_ = (uint32_t)st->st_atim.tv_sec;
	o.st_mtime_ = (uint32_t)st->st_mtim.tv_sec;
	o.st_ctime_ = (uint32_t)st->st_ctim.tv_sec;
	*c = o;
	return 0;
}

/* Sizes must fit 32 bits; file counts too, unless all-ones ("unknown"). */
static bool statfs_overflows(const struct statfs *s)
{
	uint64_t sizes = (uint64_t)s->f_blocks | (uint64_t)s->f_bfree |
			 (uint64_t)s->f_bavail | (uint64_t)s->f_bsize |
			 (uint64_t)s->f_frsize;

	return (sizes >> 32) ||
	       ((uint64_t)s->f_files != ~0ull && ((uint64_t)s->f_files >> 32)) ||
	       ((uint64_t)s->f_ffree != ~0ull && ((uint64_t)s->f_ffree >> 32));
}

int put_compat_statfs(struct compat_statfs *c, const struct statfs *s)
{
	if (statfs_overflows(s))
		return -EOVERFLOW;
	memset(c, 0, sizeof(*c));
	c->f_type = (int32_t)s->f_type;
	c->f_bsize = (int32_t)s->f_bsize;
	c->f_blocks = (int32_t)s->f_blocks;
	c->f_bfree = (int32_t)s->f_bfree;
	c->f_bavail = (int32_t)s->f_bavail;
	c->f_files = (int32_t)s->f_files;
	c->f_ffree = (int32_t)s->f_ffree;
	memcpy(c->f_fsid, &s->f_fsid, sizeof(c->f_fsid));
	c->f_namelen = (int32_t)s->f_namelen;
	c->f_frsize = (int32_t)s->f_frsize;
	c->f_flags = (int32_t)s->f_flags;
	return 0;
}

void put_compat_statfs64(struct compat_statfs64 *c, const struct statfs *s)
{
	memset(c, 0, sizeof(*c));
	c->f_type = (uint32_t)s->f_type;
	c->f_bsize = (uint32_t)s->f_bsize;
	c->f_blocks = s->f_blocks;
	c->f_bfree = s->f_bfree;
	c->f_bavail = s->f_bavail;
	c->f_files = s->f_files;
	c->f_ffree = s->f_ffree;
	memcpy(c->f_fsid, &s->f_fsid, sizeof(c->f_fsid));
	c->f_namelen = (uint32_t)s->f_namelen;
	c->f_frsize = (uint32_t)s->f_frsize;
	c->f_flags = (uint32_t)s->f_flags;
}

void get_compat_utimbuf(struct timespec ts[2], const struct compat_utimbuf *c)
{
	ts[0].tv_sec = c->actime;
	ts[0].tv_nsec = 0;
	ts[1].tv_sec = c->modtime;
	ts[1].tv_nsec = 0;
}

static void put_compat_fs_qfilestat(struct compat_fs_qfilestat *c,
				    const struct fs_qfilestat *h)
{
	c->qfs_ino = h->qfs_ino;
	c->qfs_nblks = h->qfs_nblks;
	c->qfs_nextents = h->qfs_nextents;
}

void put_compat_fs_quota_stat(struct compat_fs_quota_stat *c,
			      const struct fs_quota_stat *h)
{
	memset(c, 0, sizeof(*c));
	c->qs_version = h->qs_version;
	c->qs_flags = h->qs_flags;
	c->qs_pad = h->qs_pad;
	put_compat_fs_qfilestat(&c->qs_uquota, &h->qs_uquota);
	put_compat_fs_qfilestat(&c->qs_gquota, &h->qs_gquota);
	c->qs_incoredqs = h->qs_incoredqs;
	c->qs_btimelimit = h->qs_btimelimit;
	c->qs_itimelimit = h->qs_itimelimit;
	c->qs_rtbtimelimit = h->qs_rtbtimelimit;
	c->qs_bwarnlimit = h->qs_bwarnlimit;
	c->qs_iwarnlimit = h->qs_iwarnlimit;
}
