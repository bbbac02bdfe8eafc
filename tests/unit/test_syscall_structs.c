/* The compat structures of the syscall families (file system, time,
 * resources, sockets, System V IPC) and their converters. The generated
 * layouts check themselves against the headers they come from
 * (build.layout_gen); the socket messages, which come from sysgate's
 * kernel_structs.h, and the ones x32 passes through are checked here
 * against the C library's and the uapi headers compiled with -m32 / -mx32
 * (gen/syscall_layout_ref.h). Converter output is read back at the
 * generated offsets. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/times.h>
#include <unistd.h>
#include <cmocka.h>
#include <asm/ldt.h>

#include "syscall/compat/compat.h"
#include "trace/sigframe.h"
#include "syscall_layout_ref.h"

#define CHECK_OFF(ref, type, field) \
	assert_int_equal(offsetof(type, field), ref)

static uint32_t u32_at(const void *base, size_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)base + off, sizeof(v));
	return v;
}

static uint16_t u16_at(const void *base, size_t off)
{
	uint16_t v;

	memcpy(&v, (const uint8_t *)base + off, sizeof(v));
	return v;
}

static uint64_t u64_at(const void *base, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)base + off, sizeof(v));
	return v;
}

/* --- layouts --------------------------------------------------------------- */

/* The layouts no uapi header describes (kernel_structs.h's): msghdr,
 * mmsghdr and cmsghdr against the C library's headers compiled -m32. */
static void i386_net_layouts(void **state)
{
#ifndef SG_LAYOUT_REF_LIBC_I386
	skip();
#else
	assert_int_equal(sizeof(struct compat_msghdr), REF_I386_LIBC_MSGHDR_SIZE);
	CHECK_OFF(REF_I386_LIBC_MSGHDR_msg_namelen, struct compat_msghdr, msg_namelen);
	CHECK_OFF(REF_I386_LIBC_MSGHDR_msg_iov, struct compat_msghdr, msg_iov);
	CHECK_OFF(REF_I386_LIBC_MSGHDR_msg_iovlen, struct compat_msghdr, msg_iovlen);
	CHECK_OFF(REF_I386_LIBC_MSGHDR_msg_control, struct compat_msghdr, msg_control);
	CHECK_OFF(REF_I386_LIBC_MSGHDR_msg_controllen, struct compat_msghdr,
		  msg_controllen);
	CHECK_OFF(REF_I386_LIBC_MSGHDR_msg_flags, struct compat_msghdr, msg_flags);
	assert_int_equal(sizeof(struct compat_mmsghdr), REF_I386_LIBC_MMSGHDR_SIZE);
	CHECK_OFF(REF_I386_LIBC_MMSGHDR_msg_len, struct compat_mmsghdr, msg_len);
	assert_int_equal(sizeof(struct compat_cmsghdr), REF_I386_LIBC_CMSGHDR_SIZE);
	assert_int_equal(COMPAT_CMSG_ALIGN(1), REF_I386_LIBC_CMSG_ALIGN_1);
#endif
}

/* x32: the structures it passes through unchanged (64-bit kernel longs);
 * the ones it shares with i386 are rows marked i386,x32 in layouts.in,
 * checked by the generator. */
static void x32_layouts(void **state)
{
#ifdef SG_LAYOUT_REF_X32
	/* passed through unchanged: the host's (x86_64) sizes */
	assert_int_equal(REF_X32_ITIMERVAL_SIZE, sizeof(struct itimerval));
	assert_int_equal(REF_X32_ITIMERSPEC_SIZE, sizeof(struct itimerspec));
	assert_int_equal(REF_X32_MQ_ATTR_SIZE, sizeof(struct sc_mq_attr64));
	assert_int_equal(REF_X32_RUSAGE_SIZE, sizeof(struct rusage));
	CHECK_OFF(REF_X32_RUSAGE_ru_nivcsw, struct rusage, ru_nivcsw);
	assert_int_equal(REF_X32_SYSINFO_SIZE, sizeof(struct sysinfo));
	CHECK_OFF(REF_X32_SYSINFO_mem_unit, struct sysinfo, mem_unit);
	assert_int_equal(REF_X32_TMS_SIZE, sizeof(struct tms));
	assert_int_equal(REF_X32_UTIMBUF_SIZE, 16);
	assert_int_equal(REF_X32_SHMID64_DS_SIZE, sizeof(struct shmid_ds));
	CHECK_OFF(REF_X32_SHMID64_DS_shm_nattch, struct shmid_ds, shm_nattch);
	assert_int_equal(REF_X32_SEMID64_DS_SIZE, sizeof(struct semid_ds));
	assert_int_equal(REF_X32_MSQID64_DS_SIZE, sizeof(struct msqid_ds));
	CHECK_OFF(REF_X32_MSQID64_DS_msg_qbytes, struct msqid_ds, msg_qbytes);
#else
	skip();
#endif
#ifdef SG_LAYOUT_REF_LIBC_X32
	assert_int_equal(sizeof(struct compat_msghdr), REF_X32_LIBC_MSGHDR_SIZE);
	CHECK_OFF(REF_X32_LIBC_MSGHDR_msg_controllen, struct compat_msghdr,
		  msg_controllen);
	assert_int_equal(sizeof(struct compat_mmsghdr), REF_X32_LIBC_MMSGHDR_SIZE);
	assert_int_equal(sizeof(struct compat_cmsghdr), REF_X32_LIBC_CMSGHDR_SIZE);
	assert_int_equal(COMPAT_CMSG_ALIGN(1), REF_X32_LIBC_CMSG_ALIGN_1);
	/* statfs: 64-bit words in the x32 C library and kernel */
	assert_int_equal(REF_X32_LIBC_STATFS_SIZE, sizeof(struct statfs));
	CHECK_OFF(REF_X32_LIBC_STATFS_f_fsid, struct statfs, f_fsid);
	CHECK_OFF(REF_X32_LIBC_STATFS_f_flags, struct statfs, f_flags);
#endif
}

/* struct user_desc's bit-fields: each set alone in the host's <asm/ldt.h>
 * struct (the x86_64 one the kernel reads from i386 too) reads back as
 * its generated mask in sc_user_desc.flags (layout_gen's probe). */
static void user_desc_bits(void **state)
{
	static const struct {
		struct user_desc d;
		uint32_t mask;
	} rows[] = {
		{ { .seg_32bit = 1 }, SC_USER_DESC_SEG_32BIT },
		{ { .contents = 3 }, SC_USER_DESC_CONTENTS },
		{ { .read_exec_only = 1 }, SC_USER_DESC_READ_EXEC_ONLY },
		{ { .limit_in_pages = 1 }, SC_USER_DESC_LIMIT_IN_PAGES },
		{ { .seg_not_present = 1 }, SC_USER_DESC_SEG_NOT_PRESENT },
		{ { .useable = 1 }, SC_USER_DESC_USEABLE },
		{ { .lm = 1 }, SC_USER_DESC_LM },
	};
	(void)state;
	assert_int_equal(sizeof(struct user_desc), sizeof(struct sc_user_desc));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct sc_user_desc g;

		memcpy(&g, &rows[i].d, sizeof(g));
		assert_int_equal(g.flags, rows[i].mask);
	}
	/* contents = 2 reads back as 2 */
	struct user_desc two = { .contents = 2 };
	struct sc_user_desc g;

	memcpy(&g, &two, sizeof(g));
	assert_int_equal(LAYOUT_BITS(g.flags, SC_USER_DESC_CONTENTS), 2);
}

/* --- converters, read back at the generated offsets ----------------------- */

static void old_stat_values(void **state)
{
	struct stat st = { 0 };
	struct compat_old_stat c;

	st.st_dev = makedev(8, 3);
	st.st_ino = 4242;
	st.st_mode = S_IFREG | 0644;
	st.st_nlink = 2;
	st.st_uid = 70000; /* does not fit 16 bits: the overflow id */
	st.st_gid = 100;
	st.st_rdev = makedev(4, 1);
	st.st_size = 123456;
	st.st_atim.tv_sec = 1000;
	st.st_mtim.tv_sec = 2000;
	st.st_ctim.tv_sec = 3000;
	assert_int_equal(put_compat_old_stat(&c, &st), 0);
	assert_int_equal(u16_at(&c, 0), 0x0803); /* old_encode_dev */
	assert_int_equal(u16_at(&c, offsetof(struct compat_old_stat, st_ino)), 4242);
	assert_int_equal(u16_at(&c, offsetof(struct compat_old_stat, st_mode)), S_IFREG | 0644);
	assert_int_equal(u16_at(&c, offsetof(struct compat_old_stat, st_uid)), 65534);
	assert_int_equal(u16_at(&c, offsetof(struct compat_old_stat, st_rdev)), 0x0401);
	assert_int_equal(u32_at(&c, offsetof(struct compat_old_stat, st_size)), 123456);
	assert_int_equal(u32_at(&c, offsetof(struct compat_old_stat, st_ctime_)), 3000);
	st.st_ino = 70000;
	assert_int_equal(put_compat_old_stat(&c, &st), -EOVERFLOW);
	st.st_ino = 1;
	st.st_size = 0x80000000ll;
	assert_int_equal(put_compat_old_stat(&c, &st), -EOVERFLOW);
}

static void statfs_values(void **state)
{
	struct statfs s;
	struct compat_statfs c;
	struct compat_statfs64 c64;

	memset(&s, 0, sizeof(s));
	s.f_type = 0xef53;
	s.f_bsize = 4096;
	s.f_blocks = 1000000;
	s.f_bfree = 500000;
	s.f_bavail = 400000;
	s.f_files = ~0ul; /* "unknown" fits as all-ones */
	s.f_ffree = 77;
	s.f_namelen = 255;
	s.f_frsize = 4096;
	s.f_flags = 0x20;
	assert_int_equal(put_compat_statfs(&c, &s), 0);
	assert_int_equal(u32_at(&c, offsetof(struct compat_statfs, f_bsize)), 4096);
	assert_int_equal(u32_at(&c, offsetof(struct compat_statfs, f_blocks)), 1000000);
	assert_int_equal(u32_at(&c, offsetof(struct compat_statfs, f_files)), 0xffffffffu);
	assert_int_equal(u32_at(&c, offsetof(struct compat_statfs, f_namelen)), 255);
	assert_int_equal(u32_at(&c, offsetof(struct compat_statfs, f_flags)), 0x20);
	s.f_blocks = 1ull << 33;
	assert_int_equal(put_compat_statfs(&c, &s), -EOVERFLOW);
	put_compat_statfs64(&c64, &s);
	assert_int_equal(u64_at(&c64, offsetof(struct compat_statfs64, f_blocks)), 1ull << 33);
	assert_int_equal(u64_at(&c64, offsetof(struct compat_statfs64, f_bavail)), 400000);
	assert_int_equal(u64_at(&c64, offsetof(struct compat_statfs64, f_ffree)), 77);
	assert_int_equal(u32_at(&c64, offsetof(struct compat_statfs64, f_namelen)), 255);
	assert_int_equal(u32_at(&c64, offsetof(struct compat_statfs64, f_flags)), 0x20);
}

static void time_values(void **state)
{
	struct compat_itimerval ci = { { -1, 500000 }, { 7, 3 } };
	struct itimerval h;
	struct compat_sigevent ce;
	struct sc_sigevent64 he;
	struct compat_utimbuf cu = { -5, 99 };
	struct timespec ts[2];

	get_compat_itimerval(&h, &ci);
	assert_int_equal(h.it_interval.tv_sec, -1); /* sign-extended */
	assert_int_equal(h.it_interval.tv_usec, 500000);
	assert_int_equal(h.it_value.tv_sec, 7);
	h.it_value.tv_sec = 0x100000005ll; /* truncated on the way out */
	put_compat_itimerval(&ci, &h);
	assert_int_equal(ci.it_value.tv_sec, 5);

	memset(&ce, 0, sizeof(ce));
	ce.sigev_value = 0x80001234u;
	ce.sigev_signo = 10;
	ce.sigev_notify = 4; /* SIGEV_THREAD_ID */
	ce.tid = 4321;
	get_compat_sigevent(&he, &ce);
	assert_int_equal(he.sigev_value, 0x80001234u); /* zero-extended */
	assert_int_equal(he.sigev_signo, 10);
	assert_int_equal(he.tid, 4321);

	get_compat_utimbuf(ts, &cu);
	assert_int_equal(ts[0].tv_sec, -5);
	assert_int_equal(ts[1].tv_sec, 99);
	assert_int_equal(ts[1].tv_nsec, 0);
}

static void rusage_sysinfo_tms_values(void **state)
{
	struct rusage r;
	struct compat_rusage cr;
	struct sysinfo s;
	struct compat_sysinfo cs;
	struct tms tm = { 1, 2, 3, 0x100000004ll };
	struct compat_tms ct;

	memset(&r, 0, sizeof(r));
	r.ru_stime.tv_sec = 9;
	r.ru_maxrss = 12345;
	r.ru_nivcsw = 77;
	put_compat_rusage(&cr, &r);
	assert_int_equal(u32_at(&cr, offsetof(struct compat_rusage, ru_stime)), 9);
	assert_int_equal(u32_at(&cr, offsetof(struct compat_rusage, ru_maxrss)), 12345);
	assert_int_equal(u32_at(&cr, offsetof(struct compat_rusage, ru_nivcsw)), 77);

	/* 16 GiB of RAM in bytes: the kernel raises mem_unit to the page
	 * size (a shift of 12) so the counts fit 32 bits */
	memset(&s, 0, sizeof(s));
	s.totalram = 16ull << 30;
	s.freeram = 8ull << 30;
	s.totalswap = 4096;
	s.mem_unit = 1;
	s.procs = 300;
	put_compat_sysinfo(&cs, &s);
	assert_int_equal(u32_at(&cs, offsetof(struct compat_sysinfo, mem_unit)), 4096);
	assert_int_equal(u32_at(&cs, offsetof(struct compat_sysinfo, totalram)), 4u << 20);
	assert_int_equal(u32_at(&cs, offsetof(struct compat_sysinfo, freeswap)), 0);
	assert_int_equal(u16_at(&cs, offsetof(struct compat_sysinfo, procs)), 300);
	/* small values stay as they are */
	s.totalram = 1 << 20;
	put_compat_sysinfo(&cs, &s);
	assert_int_equal(u32_at(&cs, offsetof(struct compat_sysinfo, mem_unit)), 1);
	assert_int_equal(u32_at(&cs, offsetof(struct compat_sysinfo, totalram)), 1 << 20);

	put_compat_tms(&ct, &tm);
	assert_int_equal(u32_at(&ct, offsetof(struct compat_tms, tms_cstime)), 4);
}

static void ipc_values(void **state)
{
	struct shmid_ds h;
	struct compat_shmid64_ds c;
	struct msqid_ds mh;
	struct compat_msqid64_ds mc;
	struct semid_ds sh;
	struct compat_semid64_ds sc;

	memset(&h, 0, sizeof(h));
	h.shm_perm.mode = 0600;
	h.shm_segsz = 65536;
	h.shm_atime = 0x100000002ll;
	h.shm_cpid = 555;
	h.shm_nattch = 3;
	put_compat_shmid64_ds(&c, &h);
	assert_int_equal(u16_at(&c, offsetof(struct compat_shmid64_ds, shm_perm.mode)), 0600);
	assert_int_equal(u32_at(&c, offsetof(struct compat_shmid64_ds, shm_segsz)), 65536);
	assert_int_equal(u32_at(&c, offsetof(struct compat_shmid64_ds, shm_atime)), 2);
	assert_int_equal(u32_at(&c, offsetof(struct compat_shmid64_ds, shm_atime_high)), 1);
	assert_int_equal(u32_at(&c, offsetof(struct compat_shmid64_ds, shm_cpid)), 555);
	assert_int_equal(u32_at(&c, offsetof(struct compat_shmid64_ds, shm_nattch)), 3);

	memset(&mh, 0, sizeof(mh));
	mh.msg_qbytes = 16384;
	mh.msg_lspid = 42;
	put_compat_msqid64_ds(&mc, &mh);
	assert_int_equal(u32_at(&mc, offsetof(struct compat_msqid64_ds, msg_qbytes)), 16384);
	assert_int_equal(u32_at(&mc, offsetof(struct compat_msqid64_ds, msg_lspid)), 42);
	get_compat_msqid64_ds(&mh, &mc);
	assert_int_equal(mh.msg_qbytes, 16384);

	memset(&sh, 0, sizeof(sh));
	sh.sem_nsems = 5;
	sh.sem_ctime = 1234;
	put_compat_semid64_ds(&sc, &sh);
	assert_int_equal(u32_at(&sc, offsetof(struct compat_semid64_ds, sem_nsems)), 5);
	assert_int_equal(u32_at(&sc, offsetof(struct compat_semid64_ds, sem_ctime)), 1234);
}

/* --- control messages ----------------------------------------------------- */

/* guest (compat) cmsg: len, level, type, payload; aligned to 4 */
static size_t put_guest_cmsg(uint8_t *at, int level, int type,
			     const void *data, size_t len)
{
	struct compat_cmsghdr h = { (uint32_t)(sizeof(h) + len), level, type };

	memcpy(at, &h, sizeof(h));
	memcpy(at + sizeof(h), data, len);
	return COMPAT_CMSG_ALIGN(sizeof(h) + len);
}

static void cmsg_to_host(void **state)
{
	uint8_t guest[64], host[128];
	int fds[2] = { 7, 9 };
	struct ucred cred = { 1, 2, 3 };
	size_t glen = 0, hlen = 0;
	struct msghdr m = { 0 };
	struct cmsghdr *h;

	glen += put_guest_cmsg(guest, SOL_SOCKET, SCM_RIGHTS, fds, sizeof(fds));
	glen += put_guest_cmsg(guest + glen, SOL_SOCKET, SCM_CREDENTIALS, &cred,
			       sizeof(cred));
#ifdef SG_LAYOUT_REF_LIBC_I386
	/* the guest's C library lays the first one out the same way */
	assert_int_equal(COMPAT_CMSG_ALIGN(sizeof(struct compat_cmsghdr) + 4),
			 REF_I386_LIBC_CMSG_SPACE_4);
#endif
	assert_int_equal(get_compat_cmsgs(host, sizeof(host), &hlen, guest, glen,
					  true),
			 0);
	/* walk them with the host's own CMSG macros */
	m.msg_control = host;
	m.msg_controllen = hlen;
	h = CMSG_FIRSTHDR(&m);
	assert_non_null(h);
	assert_int_equal(h->cmsg_type, SCM_RIGHTS);
	assert_int_equal(h->cmsg_len, CMSG_LEN(sizeof(fds)));
	assert_memory_equal(CMSG_DATA(h), fds, sizeof(fds));
	h = CMSG_NXTHDR(&m, h);
	assert_non_null(h);
	assert_int_equal(h->cmsg_type, SCM_CREDENTIALS);
	assert_memory_equal(CMSG_DATA(h), &cred, sizeof(cred));
	assert_null(CMSG_NXTHDR(&m, h));
	/* a length past the buffer is -EINVAL, as the kernel's */
	((struct compat_cmsghdr *)guest)->cmsg_len = 200;
	assert_int_equal(get_compat_cmsgs(host, sizeof(host), &hlen, guest, glen,
					  true),
			 -EINVAL);
}

static void cmsg_to_guest_and_truncation(void **state)
{
	union {
		struct cmsghdr align;
		uint8_t b[256];
	} host;
	uint8_t guest[64];
	struct msghdr m = { 0 };
	struct cmsghdr *h;
	int p[2], q[2], fds[3];
	bool ctrunc = false;
	size_t used;
	int64_t tv[2] = { 0x100000007ll, 123 };

	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(q), 0);
	fds[0] = p[0];
	fds[1] = p[1];
	fds[2] = q[0];
	memset(&host, 0, sizeof(host));
	m.msg_control = host.b;
	m.msg_controllen = CMSG_SPACE(sizeof(tv)) + CMSG_SPACE(sizeof(fds));
	h = CMSG_FIRSTHDR(&m);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = 29; /* SO_TIMESTAMP_OLD: a timeval */
	h->cmsg_len = CMSG_LEN(sizeof(tv));
	memcpy(CMSG_DATA(h), tv, sizeof(tv));
	h = CMSG_NXTHDR(&m, h);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(h), fds, sizeof(fds));

	/* everything fits: an i386 timeval of 8 bytes, three descriptors */
	used = put_compat_cmsgs(guest, sizeof(guest), host.b, m.msg_controllen,
				true, &ctrunc);
	assert_false(ctrunc);
	assert_int_equal(used, 12 + 8 + 12 + 12);
	assert_int_equal(u32_at(guest, 0), 20);
	assert_int_equal(u32_at(guest, 12), 7); /* seconds truncated */
	assert_int_equal(u32_at(guest, 16), 123);
	assert_int_equal(u32_at(guest, 20), 24);
	assert_int_equal(u32_at(guest, 32), (uint32_t)fds[0]);

	/* room for the timestamp and one descriptor: the other two are
	 * closed and MSG_CTRUNC reported, as scm_detach_fds_compat */
	used = put_compat_cmsgs(guest, 20 + 16, host.b, m.msg_controllen, true,
				&ctrunc);
	assert_true(ctrunc);
	assert_int_equal(used, 36);
	assert_int_equal(u32_at(guest, 20), 16);
	assert_int_equal(fcntl(fds[0], F_GETFD), 0);
	assert_int_equal(fcntl(fds[1], F_GETFD), -1);
	assert_int_equal(fcntl(fds[2], F_GETFD), -1);
	close(fds[0]);
	close(q[1]);
}

/* The trace's sigreturn mask offsets (trace/sigframe.h) against the uapi
 * signal frame parts compiled for -m32 and -mx32. */
static void trace_sigframe_offsets(void **state)
{
	bool checked = false;

#ifdef SG_LAYOUT_REF_I386
	assert_int_equal(TRACE_SIGRETURN_I386_OLDMASK, REF_I386_SIGCONTEXT_32_oldmask);
	assert_int_equal(TRACE_SIGRETURN_I386_EXTRAMASK,
			 REF_I386_SIGCONTEXT_32_SIZE + REF_I386_FPSTATE_32_SIZE);
	assert_int_equal(TRACE_RT_SIGRETURN_I386_MASK,
			 4 * 4 + REF_I386_SIGINFO_SIZE - 4 + REF_I386_UCONTEXT_uc_sigmask);
	checked = true;
#endif
#ifdef SG_LAYOUT_REF_X32
	assert_int_equal(TRACE_RT_SIGRETURN_X32_MASK, REF_X32_UCONTEXT_uc_sigmask);
	checked = true;
#endif
	if (!checked)
		skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(i386_net_layouts),
		cmocka_unit_test(x32_layouts),
		cmocka_unit_test(user_desc_bits),
		cmocka_unit_test(trace_sigframe_offsets),
		cmocka_unit_test(old_stat_values),
		cmocka_unit_test(statfs_values),
		cmocka_unit_test(time_values),
		cmocka_unit_test(rusage_sysinfo_tms_values),
		cmocka_unit_test(ipc_values),
		cmocka_unit_test(cmsg_to_host),
		cmocka_unit_test(cmsg_to_guest_and_truncation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
