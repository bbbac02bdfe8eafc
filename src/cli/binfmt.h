/* binfmt_misc registration and invocation (src/cli/binfmt.c). */
#ifndef SG_CLI_BINFMT_H
#define SG_CLI_BINFMT_H

/* The directory of the per-entry interpreters that carry a sysroot. */
#define BINFMT_DEFAULT_DIR "/usr/local/lib/sysgate/binfmt"

/* sysgate --binfmt=ACTION [WHICH] [-L DIR]: register, unregister or print
 * the entries of WHICH (i386, x32 or all; NULL: x32). The exit status. */
int binfmt_command(const char *action, const char *which, const char *sysroot, const char *dir);

/* Run by the kernel through an entry (the P flag's AT_FLAGS bit): takes
 * the original argv[0] out of *argv (which then starts at the program
 * path) into *argv0, and the entry's sysroot, if it has one, into
 * *sysroot. 0 when this is an ordinary command line. */
int binfmt_invocation(int *argc, char ***argv, const char **argv0, const char **sysroot);

#endif
