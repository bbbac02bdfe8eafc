/* Prints how it was started: argc, argv, the base name of /proc/self/exe
 * (which must name the program, not sysgate), and whether the file
 * /sysgate-binfmt-marker can be read (only through a sysroot that has it).
 * Exit status 3. Used by the binfmt_misc cases (tests/e2e/binfmt). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char exe[4096] = { 0 };
	const char *base;
	FILE *f = fopen("/sysgate-binfmt-marker", "r");
	char marker[64] = "none";

	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) < 0)
		strcpy(exe, "?");
	base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	if (f) {
		if (!fgets(marker, sizeof(marker), f))
			strcpy(marker, "empty");
		marker[strcspn(marker, "\n")] = 0;
		fclose(f);
	}
	printf("argc %d\n", argc);
	for (int k = 0; k < argc; k++)
		printf("argv[%d] %s\n", k, argv[k]);
	printf("exe %s\nmarker %s\n", base, marker);
	return 3;
}
