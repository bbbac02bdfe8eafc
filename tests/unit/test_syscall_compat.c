/* The i386/x32 guest structures' converters (src/syscall/compat) and the
 * narrowing rules of the kernel's compat code; which structs x32 and i386
 * share with the host, checked against the real kernel headers compiled
 * with -m32 and -mx32 (gen/syscall_layout_ref.h, made by
 * tools/layout_ref_gen.sh). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <cmocka.h>
#include <linux/dqblk_xfs.h>
#include <linux/quota.h>

#include "syscall/compat/compat.h"
#include "syscall_layout_ref.h"

#define CHECK_OFF(ref, type, field) \
	assert_int_equal(offsetof(type, field), ref)

/* The generated compat layouts (gen/guest_layout_i386.h) check themselves
 * against the uapi headers (build.layout_gen); what is checked here is
 * what the translation assumes beyond them: which i386 structs are the
 * host's, and where the host's and i386's agree. */
static void i386_host_layouts(void **state)
{
	/* Q_GETQUOTA/Q_SETQUOTA copy the first COMPAT_IF_DQBLK_SIZE bytes of
	 * the host's if_dqblk: the same fields at the same offsets, without
	 * the tail padding */
	assert_int_equal(offsetof(struct compat_if_dqblk, dqb_valid),
			 offsetof(struct if_dqblk, dqb_valid));
	assert_int_equal(COMPAT_IF_DQBLK_SIZE, offsetof(struct if_dqblk, dqb_valid) + 4);
#ifdef SG_LAYOUT_REF_I386
	/* the other quota structs are the host's (fs.c) */
	assert_int_equal(REF_I386_IF_NEXTDQBLK_SIZE, sizeof(struct if_nextdqblk));
	assert_int_equal(REF_I386_IF_DQINFO_SIZE, sizeof(struct if_dqinfo));
	assert_int_equal(REF_I386_FS_DISK_QUOTA_SIZE, sizeof(struct fs_disk_quota));
	assert_int_equal(REF_I386_FS_QUOTA_STATV_SIZE, sizeof(struct fs_quota_statv));
	/* the 64-bit-time and rlimit64 calls pass straight through */
	assert_int_equal(REF_I386_TIMESPEC64_SIZE, sizeof(struct timespec));
	assert_int_equal(REF_I386_RLIMIT64_SIZE, 16);
	/* i386's struct user_desc, read as x86_64's (sc_user_desc) */
	assert_int_equal(REF_I386_USER_DESC_SIZE, sizeof(struct sc_user_desc));
#else
	skip();
#endif
}

/* x32 passes struct stat, timespec, rlimit and flock to the host unchanged
 * (its 32-bit iovec and stack_t are i386's: layout_gen checks those). */
static void x32_layouts(void **state)
{
#ifdef SG_LAYOUT_REF_X32
	assert_int_equal(REF_X32_STAT_SIZE, sizeof(struct stat));
	CHECK_OFF(REF_X32_STAT_st_ino, struct stat, st_ino);
	CHECK_OFF(REF_X32_STAT_st_mode, struct stat, st_mode);
	CHECK_OFF(REF_X32_STAT_st_nlink, struct stat, st_nlink);
	CHECK_OFF(REF_X32_STAT_st_uid, struct stat, st_uid);
	CHECK_OFF(REF_X32_STAT_st_rdev, struct stat, st_rdev);
	CHECK_OFF(REF_X32_STAT_st_size, struct stat, st_size);
	CHECK_OFF(REF_X32_STAT_st_blocks, struct stat, st_blocks);
	CHECK_OFF(REF_X32_STAT_st_atime, struct stat, st_atim.tv_sec);
	CHECK_OFF(REF_X32_STAT_st_ctime_nsec, struct stat, st_ctim.tv_nsec);
	assert_int_equal(REF_X32_TIMESPEC64_SIZE, sizeof(struct timespec));
	assert_int_equal(REF_X32_OLD_TIMEVAL_SIZE, sizeof(struct timeval));
	assert_int_equal(REF_X32_RLIMIT_SIZE, sizeof(struct rlimit));
	assert_int_equal(REF_X32_FLOCK_SIZE, sizeof(struct flock));
	CHECK_OFF(REF_X32_FLOCK_l_start, struct flock, l_start);
	CHECK_OFF(REF_X32_FLOCK_l_pid, struct flock, l_pid);
	/* quotas: x32 has the x86_64 layouts */
	assert_int_equal(REF_X32_IF_DQBLK_SIZE, sizeof(struct if_dqblk));
	assert_int_equal(REF_X32_FS_QUOTA_STAT_SIZE, sizeof(struct fs_quota_stat));
	CHECK_OFF(REF_X32_FS_QUOTA_STAT_qs_iwarnlimit, struct fs_quota_stat, qs_iwarnlimit);
#else
	skip();
#endif
}

static struct stat sample_stat(void)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_dev = 0x10803;   /* new_encode_dev(major 8, minor 3) + high */
	st.st_ino = 0x12345678;
	st.st_mode = S_IFREG | 0644;
	st.st_nlink = 3;
	st.st_uid = 1000;
	st.st_gid = 100;
	st.st_rdev = 0;
	st.st_size = 123456;
	st.st_blksize = 4096;
	st.st_blocks = 248;
	st.st_atim.tv_sec = 1700000000;
	st.st_atim.tv_nsec = 111;
	st.st_mtim.tv_sec = 1700000001;
	st.st_mtim.tv_nsec = 222;
	st.st_ctim.tv_sec = 1700000002;
	st.st_ctim.tv_nsec = 333;
	return st;
}

static void stat_values(void **state)
{
	struct stat st = sample_stat();
	struct compat_stat c;

	memset(&c, 0xaa, sizeof(c));
	assert_int_equal(put_compat_stat(&c, &st), 0);
	assert_int_equal(c.st_dev, 0x10803);
	assert_int_equal(c.st_ino, 0x12345678);
	assert_int_equal(c.st_mode, S_IFREG | 0644);
	assert_int_equal(c.st_nlink, 3);
	assert_int_equal(c.st_uid, 1000);
	assert_int_equal(c.st_gid, 100);
	assert_int_equal(c.st_size, 123456);
	assert_int_equal(c.st_blksize, 4096);
	assert_int_equal(c.st_blocks, 248);
	assert_int_equal(c.st_atime_, 1700000000);
	assert_int_equal(c.st_atime_nsec, 111);
	assert_int_equal(c.st_mtime_nsec, 222);
	assert_int_equal(c.st_ctime_, 1700000002);
	/* cp_compat_stat clears the whole structure first */
	assert_int_equal(c.unused4, 0);
	assert_int_equal(c.unused5, 0);
}

static void stat_overflow(void **state)
{
	struct stat st = sample_stat();
	struct compat_stat c;

	st.st_ino = 0x100000001ull;
	assert_int_equal(put_compat_stat(&c, &st), -EOVERFLOW);
	st = sample_stat();
	st.st_nlink = 70000;
	assert_int_equal(put_compat_stat(&c, &st), -EOVERFLOW);
	st = sample_stat();
	st.st_size = 0x80000000ll;
	assert_int_equal(put_compat_stat(&c, &st), -EOVERFLOW);
	/* ids that do not fit 16 bits read as the overflow id */
	st = sample_stat();
	st.st_uid = 100000;
	st.st_gid = 65536;
	assert_int_equal(put_compat_stat(&c, &st), 0);
	assert_int_equal(c.st_uid, 65534);
	assert_int_equal(c.st_gid, 65534);
}

static void stat64_values(void **state)
{
	struct stat st = sample_stat();
	struct compat_stat64 c;

	st.st_ino = 0x1234567890ull;
	st.st_size = 0x123456789ll;
	st.st_uid = 100000;
	memset(&c, 0xaa, sizeof(c));
	put_compat_stat64(&c, &st);
	assert_int_equal(c.st_dev, 0x10803);
	assert_int_equal(c.st_ino32, 0x34567890);
	assert_int_equal(c.st_ino, 0x1234567890ull);
	assert_int_equal(c.st_size, 0x123456789ll);
	assert_int_equal(c.st_uid, 100000);
	assert_int_equal(c.st_blocks, 248);
	assert_int_equal(c.st_mtime_, 1700000001);
	/* cp_stat64 does not write the padding */
	assert_int_equal(c.pad0[0], 0xaa);
	assert_int_equal(c.pad3[3], 0xaa);
}

static void timespec_sign(void **state)
{
	struct compat_timespec c = { -2, 500 };
	struct timespec ts;
	struct timeval tv = { 0x100000005ll, 7 };
	struct compat_timeval cv;

	get_compat_timespec(&ts, &c);
	assert_int_equal(ts.tv_sec, -2);
	assert_int_equal(ts.tv_nsec, 500);
	ts.tv_sec = 1700000000;
	ts.tv_nsec = 999999999;
	put_compat_timespec(&c, &ts);
	assert_int_equal(c.tv_sec, 1700000000);
	assert_int_equal(c.tv_nsec, 999999999);
	put_compat_timeval(&cv, &tv);
	assert_int_equal(cv.tv_sec, 5);
	assert_int_equal(cv.tv_usec, 7);
}

static void rlimit_clamp(void **state)
{
	struct rlimit r = { 8 << 20, RLIM_INFINITY };
	struct compat_rlimit c;

	put_compat_rlimit(&c, &r, COMPAT_RLIM_INFINITY);
	assert_int_equal(c.rlim_cur, 8 << 20);
	assert_int_equal(c.rlim_max, 0xffffffffu);
	r.rlim_cur = 5ull << 30;
	put_compat_rlimit(&c, &r, COMPAT_RLIM_INFINITY);
	assert_int_equal(c.rlim_cur, 0xffffffffu);
	put_compat_rlimit(&c, &r, COMPAT_RLIM_OLD_INFINITY);
	assert_int_equal(c.rlim_cur, 0x7fffffffu);
	assert_int_equal(c.rlim_max, 0x7fffffffu);
	c.rlim_cur = 1024;
	c.rlim_max = COMPAT_RLIM_INFINITY;
	get_compat_rlimit(&r, &c);
	assert_int_equal(r.rlim_cur, 1024);
	assert_true(r.rlim_max == RLIM_INFINITY);
}

static void flock_values(void **state)
{
	struct compat_flock c = { F_WRLCK, SEEK_SET, -5, 100, 42 };
	struct compat_flock64 c64;
	struct flock f;

	get_compat_flock(&f, &c);
	assert_int_equal(f.l_type, F_WRLCK);
	assert_int_equal(f.l_start, -5);
	assert_int_equal(f.l_len, 100);
	assert_int_equal(f.l_pid, 42);
	f.l_start = 0x80000000ll;
	assert_int_equal(put_compat_flock(&c, &f), -EOVERFLOW);
	f.l_start = 10;
	f.l_len = 0x100000000ll;
	assert_int_equal(put_compat_flock(&c, &f), 0);
	assert_int_equal(c.l_len, 0x7fffffff);
	f.l_start = 0x100000000ll;
	put_compat_flock64(&c64, &f);
	assert_true(c64.l_start == 0x100000000ll);
	assert_int_equal(c64.l_pid, 42);
	get_compat_flock64(&f, &c64);
	assert_true(f.l_start == 0x100000000ll);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(i386_host_layouts),
		cmocka_unit_test(x32_layouts),
		cmocka_unit_test(stat_values),
		cmocka_unit_test(stat_overflow),
		cmocka_unit_test(stat64_values),
		cmocka_unit_test(timespec_sign),
		cmocka_unit_test(rlimit_clamp),
		cmocka_unit_test(flock_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
