/* upper: copy stdin to stdout in upper case with read/write; print the
 * byte and line counts at the end. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	char buf[173]; /* odd size: several short reads */
	long bytes = 0, lines = 0;
	ssize_t n;

	while ((n = read(0, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n')
				lines++;
			buf[i] = (char)toupper((unsigned char)buf[i]);
		}
		if (write(1, buf, (size_t)n) != n)
			return 1;
		bytes += n;
	}
	if (n < 0) {
		perror("read");
		return 1;
	}
	printf("bytes=%ld lines=%ld\n", bytes, lines);
	return 0;
}
