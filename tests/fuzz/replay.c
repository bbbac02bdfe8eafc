/* Replays fuzz inputs (files or directories of files) through the fuzz
 * target without libFuzzer: the ctest that keeps found crashes fixed. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	static uint8_t buf[1 << 16];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		perror(path);
		return 1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0, count = 0;

	for (int k = 1; k < argc; k++) {
		struct stat st;
		DIR *d;
		struct dirent *e;

		if (stat(argv[k], &st) != 0 || !S_ISDIR(st.st_mode)) {
			bad |= replay_file(argv[k]);
			count++;
			continue;
		}
		d = opendir(argv[k]);
		while (d && (e = readdir(d))) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[k], e->d_name);
			bad |= replay_file(path);
			count++;
		}
		if (d)
			closedir(d);
	}
	printf("replayed %d inputs\n", count);
	return bad;
}
