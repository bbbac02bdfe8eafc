/* int80buf: the directory calls sysgate hands to the host's own int $0x80
 * entry (i386: getdents, getdents64, _llseek, readdir; x32: getdents64),
 * which writes the guest's buffer unchecked. A buffer at 0x80001000 is
 * unmapped in this program: EFAULT natively. In a sanitizer build of
 * sysgate that address holds the sanitizer's shadow, which such a call
 * overwrote (fuzz_syscall). A buffer whose second page is unmapped gets
 * the entries that fit before it, as natively. Under the x86_64 twin
 * (E2E_REF_TWIN) the i386-only calls are left out in both runs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FOREIGN 0x80001000ul

static void show(const char *what, long r)
{
	if (r < 0)
		printf("%s: %s\n", what, strerrorname_np(errno));
	else
		printf("%s: %ld\n", what, r);
}

int main(void)
{
	int twin = getenv("E2E_REF_TWIN") != NULL;
	int fd = open("/", O_RDONLY | O_DIRECTORY);
	char *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (fd < 0 || two == MAP_FAILED || munmap(two + 4096, 4096))
		return 2;
	show("getdents64 foreign", syscall(SYS_getdents64, fd, FOREIGN, 4096));
	lseek(fd, 0, SEEK_SET);
	show("getdents64 into a page before an unmapped one",
	     syscall(SYS_getdents64, fd, two + 3072, 8192) > 0 ? 1 : -1);
#ifdef __i386__
	if (!twin) {
		lseek(fd, 0, SEEK_SET);
		show("getdents foreign", syscall(SYS_getdents, fd, FOREIGN, 4096));
		show("_llseek foreign", syscall(SYS__llseek, fd, 0, 0, FOREIGN, SEEK_SET));
		show("readdir foreign", syscall(SYS_readdir, fd, FOREIGN, 1));
		lseek(fd, 0, SEEK_SET);
		show("getdents into a page before an unmapped one",
		     syscall(SYS_getdents, fd, two + 3072, 8192) > 0 ? 1 : -1);
	}
#else
	(void)twin;
#endif
	return 0;
}
