/* Build-time reference, never linked: siginfo_t's members by the uapi
 * header's own si_* names (independent of layouts.in's paths), and the
 * fsave header's end, as the real headers lay them out for the ABI this
 * is compiled for (-m32 or -mx32, `-S` only); see tools/layout_ref_gen.sh
 * and tests/unit/test_signal.c. */
#include <stddef.h>
#include <asm/signal.h>
#include <asm/sigcontext.h>
#include <asm/siginfo.h>

#define EMIT(name, val) \
	__asm__ volatile(".ascii \"@@ " #name " %c0\\n\"" : : "i"((long)(val)))

void signal_layout_ref(void);
void signal_layout_ref(void)
{
	EMIT(SIGINFO_SIZE, sizeof(siginfo_t));
	EMIT(SI_PID, offsetof(siginfo_t, si_pid));
	EMIT(SI_UID, offsetof(siginfo_t, si_uid));
	EMIT(SI_STATUS, offsetof(siginfo_t, si_status));
	EMIT(SI_UTIME, offsetof(siginfo_t, si_utime));
	EMIT(SI_STIME, offsetof(siginfo_t, si_stime));
	EMIT(SI_VALUE, offsetof(siginfo_t, si_value));
	EMIT(SI_ADDR, offsetof(siginfo_t, si_addr));
	EMIT(SI_ADDR_LSB, offsetof(siginfo_t, si_addr_lsb));
	EMIT(SI_BAND, offsetof(siginfo_t, si_band));
	EMIT(SI_FD, offsetof(siginfo_t, si_fd));
	EMIT(SI_TIMERID, offsetof(siginfo_t, si_tid));
	EMIT(SI_OVERRUN, offsetof(siginfo_t, si_overrun));
	EMIT(SI_CALL_ADDR, offsetof(siginfo_t, si_call_addr));
	EMIT(SI_SYSCALL, offsetof(siginfo_t, si_syscall));
	EMIT(SI_ARCH, offsetof(siginfo_t, si_arch));
	EMIT(FPSTATE32_FXSR_ENV, offsetof(struct _fpstate_32, _fxsr_env));
}
