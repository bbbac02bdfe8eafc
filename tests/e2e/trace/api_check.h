/* The assertion the installed-library checks (api_check.c,
 * api_more_check.c) share: a failed condition is printed with its place
 * and counted; main returns failures != 0. */
#ifndef SG_TESTS_API_CHECK_H
#define SG_TESTS_API_CHECK_H

#include <stdio.h>

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

#endif
