/* The sysgate side of the vDSO's private calls (vdso_time.c): the entry
 * code sees a call return to vdso_private_return and hands it here. The
 * number is the system call of the same function in the caller's table,
 * and the answer has that call's meaning and guest layouts; the host's
 * clock is read through this process's libc (the host vDSO), so no host
 * kernel entry is made for the common clocks. */
#define _GNU_SOURCE /* getcpu */
#include <asm/unistd_32.h>
#include <errno.h>
#include <sched.h>
#include <sys/time.h>
#include <time.h>

#include "mm/mm.h"
#include "vdso/vdso.h"

/* x86_64 and x32 share these numbers (x32: without the 0x40000000 bit) */
enum {
	X64_GETTIMEOFDAY = 96, X64_TIME = 201, X64_CLOCK_GETTIME = 228,
	X64_CLOCK_GETRES = 229, X64_GETCPU = 309,
};

struct old_timespec32 { int32_t tv_sec, tv_nsec; };
struct old_timeval32 { int32_t tv_sec, tv_usec; };
struct kernel_timespec { int64_t tv_sec, tv_nsec; };
struct kernel_timeval { int64_t tv_sec, tv_usec; }; /* x86_64 and x32 */

/* Write ts in the layout the call uses; a NULL destination is skipped
 * where the call allows it. */
static long put_ts(struct mm *mm, uint64_t dst, const struct timespec *ts,
		   bool narrow)
{
	if (narrow) {
		struct old_timespec32 t = { (int32_t)ts->tv_sec,
					    (int32_t)ts->tv_nsec };

		return copy_to_guest(mm, dst, &t, sizeof(t));
	} else {
		struct kernel_timespec t = { ts->tv_sec, ts->tv_nsec };

		return copy_to_guest(mm, dst, &t, sizeof(t));
	}
}

static long clock_call(struct mm *mm, const uint64_t *a, bool res, bool narrow)
{
	struct timespec ts;
	int r = res ? clock_getres((clockid_t)(int32_t)a[0], &ts) :
		      clock_gettime((clockid_t)(int32_t)a[0], &ts);

	if (r < 0)
		return -errno;
	if (res && !a[1])
		return 0;
	return put_ts(mm, a[1], &ts, narrow);
}

static long gettimeofday_call(struct mm *mm, const uint64_t *a, bool narrow)
{
	struct timeval tv;
	struct timezone tz;

	if (gettimeofday(&tv, &tz) < 0)
		return -errno;
	if (a[0]) {
		if (narrow) {
			struct old_timeval32 t = { (int32_t)tv.tv_sec,
						   (int32_t)tv.tv_usec };

			if (copy_to_guest(mm, a[0], &t, sizeof(t)))
				return -EFAULT;
		} else {
			struct kernel_timeval t = { tv.tv_sec, tv.tv_usec };

			if (copy_to_guest(mm, a[0], &t, sizeof(t)))
				return -EFAULT;
		}
	}
	if (a[1] && copy_to_guest(mm, a[1], &tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}

static long time_call(struct mm *mm, const uint64_t *a, bool narrow)
{
	time_t now = time(NULL);

	if (a[0]) {
		int32_t t32 = (int32_t)now;
		int64_t t64 = now;

		if (copy_to_guest(mm, a[0], narrow ? (void *)&t32 : (void *)&t64,
				  narrow ? 4 : 8))
			return -EFAULT;
	}
	return narrow ? (long)(int32_t)now : (long)now;
}

static long getcpu_call(struct mm *mm, const uint64_t *a)
{
	unsigned cpu, node;

	if (getcpu(&cpu, &node) < 0)
		return -errno;
	if (a[0] && copy_to_guest(mm, a[0], &cpu, sizeof(cpu)))
		return -EFAULT;
	if (a[1] && copy_to_guest(mm, a[1], &node, sizeof(node)))
		return -EFAULT;
	return 0;
}

/* The clocks the kernel's x86 vDSO reads itself (lib/vdso/gettimeofday.c:
 * the high-resolution ones, the coarse ones and MONOTONIC_RAW); any other
 * id, valid or not, goes to the kernel. */
static bool vdso_reads_clock(int32_t clock)
{
	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
	case CLOCK_TAI:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
	case CLOCK_MONOTONIC_RAW:
		return true;
	}
	return false;
}

bool vdso_call_enters_kernel(bool is_i386, unsigned nr, const uint64_t *a)
{
	bool clock_call = is_i386 ? nr == __NR_clock_gettime || nr == __NR_clock_gettime64 ||
					 nr == __NR_clock_getres
			       : nr == X64_CLOCK_GETTIME || nr == X64_CLOCK_GETRES;

	return clock_call && !vdso_reads_clock((int32_t)a[0]);
}

long vdso_answer(struct mm *mm, bool is_i386, unsigned nr, const uint64_t *a)
{
	if (is_i386) {
		switch (nr) {
		case __NR_clock_gettime: return clock_call(mm, a, false, true);
		case __NR_clock_gettime64: return clock_call(mm, a, false, false);
		case __NR_clock_getres: return clock_call(mm, a, true, true);
		case __NR_gettimeofday: return gettimeofday_call(mm, a, true);
		case __NR_time: return time_call(mm, a, true);
		case __NR_getcpu: return getcpu_call(mm, a);
		}
		return -ENOSYS;
	}
	switch (nr) {
	case X64_CLOCK_GETTIME: return clock_call(mm, a, false, false);
	case X64_CLOCK_GETRES: return clock_call(mm, a, true, false);
	case X64_GETTIMEOFDAY: return gettimeofday_call(mm, a, false);
	case X64_TIME: return time_call(mm, a, false);
	case X64_GETCPU: return getcpu_call(mm, a);
	}
	return -ENOSYS;
}
