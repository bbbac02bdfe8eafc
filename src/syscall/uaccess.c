/* Guest buffers as the handlers hand them to the host, and the generic
 * pass-through engine behind SG_PASSTHROUGH (internal.h). Paths: path.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syscall/internal.h"

void *sc_buf(struct sg_thread *t, uint64_t addr, uint64_t len, int prot,
	     long *err)
{
	if (addr == 0)
		return NULL;
	if (!sc_ok(t, addr, len, prot)) {
		*err = -EFAULT;
		return NULL;
	}
	return g2h(addr);
}

/* sc_path and sc_is_proc_exe: path.c */

long sc_passthrough(struct sg_thread *t, const uint64_t *a, long nr,
		    const uint16_t *spec, unsigned nargs)
{
	char paths[2][PATH_MAX];
	unsigned npaths = 0;
	long host[6] = { 0 };
	long err = 0;

	for (unsigned i = 0; i < nargs && i < 6; i++) {
		unsigned p = PA_PARAM(spec[i]);

		switch (PA_KIND(spec[i])) {
		case PA_VAL:
			host[i] = (long)a[i];
			break;
		case PA_S32:
			host[i] = sc_compat() ? sc_s32(a[i]) : (long)a[i];
			break;
		case PA_PATH:
			if (a[i] == 0 || npaths == ARRAY_SIZE(paths)) {
				host[i] = 0;
				break;
			}
			err = sc_path(t, a[i], paths[npaths], true);
			if (err)
				return err;
			host[i] = (long)paths[npaths++];
			break;
		case PA_IN:
			host[i] = (long)sc_buf(t, a[i], a[p], PROT_READ, &err);
			break;
		case PA_OUT:
			host[i] = (long)sc_buf(t, a[i], a[p], PROT_WRITE, &err);
			break;
		case PA_INN:
			host[i] = (long)sc_buf(t, a[i], p, PROT_READ, &err);
			break;
		case PA_OUTN:
			host[i] = (long)sc_buf(t, a[i], p, PROT_WRITE, &err);
			break;
		case PA_STR:
			if (a[i] == 0 || npaths == ARRAY_SIZE(paths)) {
				host[i] = 0;
				break;
			}
			err = strncpy_from_guest(sc_mm(t), paths[npaths], a[i],
						 PATH_MAX);
			if (err > 0)
				err = 0;
			host[i] = (long)paths[npaths++];
			break;
		case PA_ID16:
			host[i] = (uint16_t)a[i] == 0xffff ? -1
							    : (long)(uint16_t)a[i];
			break;
		case PA_INE:
		case PA_OUTE:
			/* count * size cannot wrap: both are below 2^32 */
			host[i] = (long)sc_buf(t, a[i],
					       (uint64_t)(uint32_t)a[p & 7] * (p >> 3),
					       PA_KIND(spec[i]) == PA_INE ? PROT_READ
									  : PROT_WRITE,
					       &err);
			break;
		}
		if (err)
			return err;
	}
	return host_syscall6(nr, host[0], host[1], host[2], host[3], host[4],
			     host[5]);
}
