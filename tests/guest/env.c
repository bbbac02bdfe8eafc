/* env [--platform] ARG...: argv, the environment variables SG_* given to
 * it, and the auxv entries whose values must match a native run.
 *
 * AT_PLATFORM's string is printed only with --platform: the kernel gives
 * compat processes, x32 included, COMPAT_ELF_PLATFORM ("i686"), while the
 * -m64 twin that x32 is compared with natively sees "x86_64". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

extern char **environ;

int main(int argc, char **argv)
{
	int platform = 0;

	printf("argc=%d\n", argc);
	for (int i = 0; i < argc; i++) {
		printf("argv[%d]=\"%s\"\n", i, argv[i]);
		if (!strcmp(argv[i], "--platform"))
			platform = 1;
	}
	printf("argv[argc]=%s\n", argv[argc] ? "non-NULL" : "NULL");
	for (char **e = environ; *e; e++)
		if (!strncmp(*e, "SG_", 3))
			printf("env %s\n", *e);
	printf("getenv(SG_ONE)=%s\n", getenv("SG_ONE") ? getenv("SG_ONE") : "(unset)");
	printf("getenv(SG_MISSING)=%s\n", getenv("SG_MISSING") ? getenv("SG_MISSING") : "(unset)");

	printf("AT_PAGESZ=%lu\n", getauxval(AT_PAGESZ));
	printf("AT_UID=%lu AT_EUID=%lu\n", getauxval(AT_UID), getauxval(AT_EUID));
	printf("AT_GID=%lu AT_EGID=%lu\n", getauxval(AT_GID), getauxval(AT_EGID));
	printf("AT_SECURE=%lu\n", getauxval(AT_SECURE));
	printf("AT_RANDOM %s\n", getauxval(AT_RANDOM) ? "set" : "missing");
	printf("AT_PLATFORM %s\n", getauxval(AT_PLATFORM) ? "set" : "missing");
	printf("AT_PHDR %s\n", getauxval(AT_PHDR) ? "set" : "missing");
	printf("AT_ENTRY %s\n", getauxval(AT_ENTRY) ? "set" : "missing");
	if (platform && getauxval(AT_PLATFORM))
		printf("AT_PLATFORM=\"%s\"\n", (const char *)getauxval(AT_PLATFORM));
	return 0;
}
