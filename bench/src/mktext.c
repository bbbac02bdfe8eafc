/* mktext (host): N MiB of deterministic English-like text on stdout, the
 * input of the sha256 and gzip workloads (compressible, like real text). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const words[] = {
	"the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as",
	"was", "with", "be", "by", "on", "not", "he", "this", "are", "or",
	"his", "from", "at", "which", "but", "have", "an", "had", "they",
	"you", "were", "their", "one", "all", "we", "can", "her", "has",
	"there", "been", "if", "more", "when", "will", "would", "who", "so",
	"no", "system", "call", "kernel", "interpreter", "instruction",
	"register", "memory", "page", "process", "signal", "emulator",
	"program", "table", "number", "address", "translation", "compatible",
};

int main(int argc, char **argv)
{
	long want = (argc > 1 ? atol(argv[1]) : 1) << 20;
	uint32_t seed = 42;
	long col = 0, out = 0;

	while (out < want) {
		const char *w;
		size_t len;

		seed = seed * 1664525u + 1013904223u;
		w = words[(seed >> 8) % (sizeof(words) / sizeof(words[0]))];
		len = strlen(w);
		if (out + (long)len + 1 > want)
			break;
		fputs(w, stdout);
		col += (long)len + 1;
		if (col > 70 || out + (long)len + 2 > want) {
			putchar('\n');
			col = 0;
		} else {
			putchar(' ');
		}
		out += (long)len + 1;
	}
	while (out++ < want)
		putchar('\n');
	return 0;
}
