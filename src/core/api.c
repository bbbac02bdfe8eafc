/* Public API entry points that are pure data: errors, names, options. */
#include <string.h>
#include "sysgate.h"
#include "syscall/syscall.h"

static const char *const err_text[SG_ERR__COUNT] = {
	[SG_OK] = "success",
	[SG_ERR_NOENT] = "No such file or directory",
	[SG_ERR_ACCES] = "Permission denied",
	[SG_ERR_ISDIR] = "Is a directory",
	[SG_ERR_NOEXEC] = "cannot execute: not an ELF executable",
	[SG_ERR_TRUNCATED] = "cannot execute: truncated ELF file",
	[SG_ERR_BADELF] = "cannot execute: malformed ELF file",
	[SG_ERR_MACHINE] = "cannot execute: ELF for another machine (not x86)",
	[SG_ERR_CLASS] = "cannot execute: unsupported ELF class or type",
	[SG_ERR_INTERP] = "cannot execute: program interpreter not usable",
	[SG_ERR_NOMEM] = "Cannot allocate memory",
	[SG_ERR_RESERVE] = "cannot reserve the low 4 GiB for a 32-bit guest",
	[SG_ERR_IO] = "Input/output error",
	[SG_ERR_INVAL] = "Invalid argument",
	[SG_ERR_STATE] = "operation not valid in this state",
	[SG_ERR_STOPPED] = "stopped by sg_stop",
	[SG_ERR_FAULT] = "Bad address",
	[SG_ERR_FILTER] = "unknown system call or class in the trace filter",
	[SG_ERR_SEGMENTS] = "cannot execute: the ELF segments cannot be mapped",
	[SG_ERR_REACHED] = "stopped at the address sg_run_until was given",
	[SG_ERR_BUDGET] = "stopped: the instruction budget is spent",
	[SG_ERR_EXIST] = "File exists",
};

SG_API const char *sg_strerror(enum sg_err err)
{
	if ((unsigned)err >= SG_ERR__COUNT || !err_text[err])
		return "unknown error";
	return err_text[err];
}

SG_API const char *sg_version(void)
{
	return SG_VERSION;
}

SG_API const char *sg_abi_name(enum sg_abi abi)
{
	switch (abi) {
	case SG_ABI_I386:
		return "i386";
	case SG_ABI_X32:
		return "x32";
	case SG_ABI_X64:
		return "x86_64";
	default:
		return "none";
	}
}

SG_API void sg_options_init(struct sg_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->trace_fd = -1;
	opts->trace_strlen = 32; /* strace's default */
	opts->mode = SG_MODE_OWN_PROCESS;
	opts->stdin_fd = opts->stdout_fd = opts->stderr_fd = -1;
}

SG_API enum sg_err sg_list_syscalls(enum sg_abi abi, FILE *out)
{
	static const enum sg_table tables[] = {
		[SG_ABI_I386] = SG_TABLE_I386,
		[SG_ABI_X32] = SG_TABLE_X32,
		[SG_ABI_X64] = SG_TABLE_X64,
	};

	if (abi != SG_ABI_I386 && abi != SG_ABI_X32 && abi != SG_ABI_X64)
		return SG_ERR_INVAL;
	syscall_print_coverage(out, tables[abi]);
	return SG_OK;
}
