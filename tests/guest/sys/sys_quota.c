/* Disk quotas: quotactl and quotactl_fd on the file system of WORK (the
 * block device its mount names) and on paths that are no device. Only
 * calls that read or sync are made (the tests run natively as root); the
 * answers are the host's (a file system without quotas: ESRCH, ENOSYS,
 * zeros), so sysgate must give the same ones and, for i386, the XFS
 * statistics in the guest's own layout. */
#include "sys.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/dqblk_xfs.h>
#include <linux/quota.h>

#define QCMD_OF(cmd, type) (((cmd) << 8) | ((type) & 0xff))

/* the source of the mount that holds path (/proc/self/mountinfo) */
static int device_of(const char *path, char *dev, size_t size)
{
	char line[4096];
	struct stat st;
	FILE *f;
	int found = 0;

	if (stat(path, &st) || !(f = fopen("/proc/self/mountinfo", "r")))
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%*s %*s %u:%u", &maj, &min) != 2 ||
		    makedev(maj, min) != st.st_dev)
			continue;
		found = sscanf(sep + 3, "%*s %4095s", line) == 1 &&
			strlen(line) < size;
		if (found)
			strcpy(dev, line);
	}
	fclose(f);
	return found;
}

static long quota(unsigned cmd, const char *special, unsigned id, void *addr)
{
	return syscall(SYS_quotactl, cmd, special, id, addr);
}

int main(int argc, char **argv)
{
	const char *work = argc > 1 ? argv[1] : ".";
	char dev[4096];
	uint32_t fmt = 0;
	struct if_dqinfo info;
	struct if_dqblk dq;
	struct if_nextdqblk next;
	struct fs_quota_stat xs;
	struct fs_quota_statv xsv;
	struct fs_disk_quota xdq;
	long r;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	FACT("device found", device_of(work, dev, sizeof(dev)));
	CHECK("getfmt missing path", quota(QCMD_OF(Q_GETFMT, USRQUOTA), "/nonexistent/dev", 0, &fmt));
	CHECK("getfmt on a directory", quota(QCMD_OF(Q_GETFMT, USRQUOTA), work, 0, &fmt));
	CHECK("getfmt NULL special", quota(QCMD_OF(Q_GETFMT, USRQUOTA), NULL, 0, &fmt));
	CHECK("getfmt bad type", quota(QCMD_OF(Q_GETFMT, 77), dev, 0, &fmt));
	CHECK("bad command", quota(QCMD_OF(0x12345, USRQUOTA), dev, 0, &fmt));
	CHECK("sync all", quota(QCMD_OF(Q_SYNC, USRQUOTA), NULL, 0, NULL));
	CHECK("sync device", quota(QCMD_OF(Q_SYNC, USRQUOTA), dev, 0, NULL));
	CHECK("getfmt", r = quota(QCMD_OF(Q_GETFMT, USRQUOTA), dev, 0, &fmt));
	if (r == 0)
		printf("format %u\n", fmt);
	CHECK("getfmt bad addr", quota(QCMD_OF(Q_GETFMT, USRQUOTA), dev, 0, (void *)16));
	memset(&info, 0, sizeof(info));
	CHECK("getinfo", r = quota(QCMD_OF(Q_GETINFO, USRQUOTA), dev, 0, &info));
	if (r == 0)
		printf("info %llu %llu %u %u\n", (unsigned long long)info.dqi_bgrace,
		       (unsigned long long)info.dqi_igrace, info.dqi_flags, info.dqi_valid);
	memset(&dq, 0, sizeof(dq));
	CHECK("getquota uid 0", r = quota(QCMD_OF(Q_GETQUOTA, USRQUOTA), dev, 0, &dq));
	if (r == 0)
		printf("dqblk %llu %llu %u\n", (unsigned long long)dq.dqb_curspace,
		       (unsigned long long)dq.dqb_curinodes, dq.dqb_valid);
	CHECK("getquota bad addr", quota(QCMD_OF(Q_GETQUOTA, USRQUOTA), dev, 0, (void *)16));
	CHECK("getquota group", quota(QCMD_OF(Q_GETQUOTA, GRPQUOTA), dev, 0, &dq));
	CHECK("getnextquota", quota(QCMD_OF(Q_GETNEXTQUOTA, USRQUOTA), dev, 0, &next));

	/* the XFS interface, which ext4 answers too */
	memset(&xs, 0x55, sizeof(xs));
	CHECK("xgetqstat", r = quota(QCMD_OF(Q_XGETQSTAT, USRQUOTA), dev, 0, &xs));
	if (r == 0)
		printf("qstat v%d flags %#x u %llu %llu %u g %llu %llu %u limits %d %d %d warn %u %u\n",
		       xs.qs_version, xs.qs_flags,
		       (unsigned long long)xs.qs_uquota.qfs_ino,
		       (unsigned long long)xs.qs_uquota.qfs_nblks,
		       xs.qs_uquota.qfs_nextents,
		       (unsigned long long)xs.qs_gquota.qfs_ino,
		       (unsigned long long)xs.qs_gquota.qfs_nblks,
		       xs.qs_gquota.qfs_nextents, xs.qs_btimelimit,
		       xs.qs_itimelimit, xs.qs_rtbtimelimit, xs.qs_bwarnlimit,
		       xs.qs_iwarnlimit);
	CHECK("xgetqstat bad addr", quota(QCMD_OF(Q_XGETQSTAT, USRQUOTA), dev, 0, (void *)16));
	memset(&xsv, 0, sizeof(xsv));
	xsv.qs_version = FS_QSTATV_VERSION1;
	CHECK("xgetqstatv", r = quota(QCMD_OF(Q_XGETQSTATV, USRQUOTA), dev, 0, &xsv));
	if (r == 0)
		printf("qstatv v%d flags %#x incore %u u %llu p %llu limits %d %d warn %u %u %u\n",
		       xsv.qs_version, xsv.qs_flags, xsv.qs_incoredqs,
		       (unsigned long long)xsv.qs_uquota.qfs_ino,
		       (unsigned long long)xsv.qs_pquota.qfs_ino,
		       xsv.qs_btimelimit, xsv.qs_itimelimit, xsv.qs_bwarnlimit,
		       xsv.qs_iwarnlimit, xsv.qs_rtbwarnlimit);
	CHECK("xgetquota", quota(QCMD_OF(Q_XGETQUOTA, USRQUOTA), dev, 0, &xdq));
	CHECK("xgetnextquota", quota(QCMD_OF(Q_XGETNEXTQUOTA, USRQUOTA), dev, 0, &xdq));

	fd = open(work, O_RDONLY | O_DIRECTORY);
	CHECK("open work", fd >= 0 ? 0 : -1);
	CHECK("quotactl_fd getfmt", syscall(SYS_quotactl_fd, fd, QCMD_OF(Q_GETFMT, USRQUOTA), 0, &fmt));
	CHECK("quotactl_fd getquota", syscall(SYS_quotactl_fd, fd, QCMD_OF(Q_GETQUOTA, USRQUOTA), 0, &dq));
	CHECK("quotactl_fd xgetqstat", syscall(SYS_quotactl_fd, fd, QCMD_OF(Q_XGETQSTAT, USRQUOTA), 0, &xs));
	CHECK("quotactl_fd bad fd", syscall(SYS_quotactl_fd, 999, QCMD_OF(Q_GETFMT, USRQUOTA), 0, &fmt));
	close(fd);
	return 0;
}
