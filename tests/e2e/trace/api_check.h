/* The assertion the installed-library checks (api_check.c,
 * api_more_check.c) share: a failed condition is printed with its place
 * and counted; main returns failures != 0. */
#ifndef SG_TESTS_API_CHECK_H
#define SG_TESTS_API_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysgate.h>

static int failures;

#define CHECK(cond, ...)                                             \
	do {                                                         \
		if (!(cond)) {                                       \
			fprintf(stderr, "FAIL %s:%d: ",              \
				__FILE__, __LINE__);                 \
			fprintf(stderr, __VA_ARGS__);                \
			fputc('\n', stderr);                         \
			failures++;                                  \
		}                                                    \
	} while (0)

/* The mode the checks run the guests in: SG_MODE_IN_PROCESS when
 * SG_CHECK_MODE=in, else the default (check_install.sh runs both). */
static __attribute__((unused)) int in_process(void)
{
	const char *m = getenv("SG_CHECK_MODE");

	return m && !strcmp(m, "in");
}

static __attribute__((unused)) const struct sg_options *mode_options(void)
{
	static struct sg_options o;

	sg_options_init(&o);
	if (in_process())
		o.mode = SG_MODE_IN_PROCESS;
	return &o;
}

#endif
