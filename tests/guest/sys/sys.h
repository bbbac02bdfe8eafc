/* Shared by the tests/guest/sys programs: print one line per check, the
 * result or the errno name, so a native run and a sysgate run (x32: its
 * x86_64 twin natively) can be compared line by line. Only values that do
 * not depend on the ABI are printed. */
#ifndef SG_GUEST_SYS_H
#define SG_GUEST_SYS_H

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

static const char *err_name(int e)
{
	switch (e) {
	case EFAULT: return "EFAULT";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EBADF: return "EBADF";
	case ENOTTY: return "ENOTTY";
	case EAGAIN: return "EAGAIN";
	case ENOSYS: return "ENOSYS";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case ENOTEMPTY: return "ENOTEMPTY";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENODATA: return "ENODATA";
	case EOVERFLOW: return "EOVERFLOW";
	case ERANGE: return "ERANGE";
	case ESPIPE: return "ESPIPE";
	case ENOMSG: return "ENOMSG";
	case EIDRM: return "EIDRM";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EINTR: return "EINTR";
	case EXDEV: return "EXDEV";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ESRCH: return "ESRCH";
	case ENODEV: return "ENODEV";
	case ENXIO: return "ENXIO";
	case ENOTBLK: return "ENOTBLK";
	default: {
		static char other[16];

		snprintf(other, sizeof(other), "E%d", e); /* errno values are the same in every ABI */
		return other;
	}
	}
}

/* CHECK("label", expr): prints "label = value" or "label = -1 ENAME" */
#define CHECK(label, expr)                                                  \
	do {                                                                \
		long _r;                                                    \
		errno = 0;                                                  \
		_r = (long)(expr);                                          \
		if (_r == -1)                                               \
			printf("%s = -1 %s\n", label, err_name(errno));     \
		else                                                        \
			printf("%s = %ld\n", label, _r);                    \
	} while (0)

/* The i386-only calls are checked only against a native i386 run: where
 * the host cannot run i386 programs, run_case.sh compares with the x86_64
 * twin, which cannot make them, and sets E2E_REF_TWIN for both runs. */
static inline int abi_only_checks(void)
{
	return !getenv("E2E_REF_TWIN");
}

/* Boolean facts: "label: yes/no" */
#define FACT(label, cond) printf("%s: %s\n", label, (cond) ? "yes" : "no")

#endif
