/* The guest's /proc/self view of its address space: maps (one line per
 * guest VMA, formatted as the kernel's show_map_vma() prints them, the
 * name starting in column 73) and the exec facts behind cmdline, environ
 * and auxv. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mm/mm_internal.h"

/* 25 + sizeof(void *) * 6 - 1 on a 64-bit kernel, compat tasks included */
#define MAPS_NAME_COLUMN 72

int mm_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int mm_format_vma(const struct mm *mm, const struct vma *v, char *buf,
		  size_t size)
{
	const char *name = v->name;
	int n;

	if (!name && !v->file && mm->brk_start && v->start >= mm->brk_start &&
	    v->end <= MM_PAGE_ALIGN_UP(mm->brk_cur))
		name = "[heap]";
	n = snprintf(buf, size, "%08" PRIx64 "-%08" PRIx64 " %c%c%c%c %08" PRIx64
		     " %02x:%02x %" PRIu64 " ",
		     v->start, v->end, v->prot & PROT_READ ? 'r' : '-',
		     v->prot & PROT_WRITE ? 'w' : '-',
		     v->prot & PROT_EXEC ? 'x' : '-', v->shared ? 's' : 'p',
		     v->file ? v->offset : 0,
		     v->file ? major(v->dev) : 0, v->file ? minor(v->dev) : 0,
		     v->file ? v->ino : 0);
	if (name)
		n += snprintf(buf + n, size - (size_t)n, "%*s%s\n",
			      n < MAPS_NAME_COLUMN ? MAPS_NAME_COLUMN - n + 1 : 1,
			      "", name);
	else
		n += snprintf(buf + n, size - (size_t)n, "\n");
	return n < (int)size ? n : (int)size - 1;
}

int mm_write_maps(const struct mm *mm, int fd)
{
	char line[4096 + 128];
	int err = 0;

	mm_rdlock(mm);
	for (size_t i = 0; i < mm->nvmas && !err; i++) {
		int n = mm_format_vma(mm, &mm->vmas[i], line, sizeof(line));

		err = mm_write_all(fd, line, (size_t)n);
	}
	mm_unlock(mm);
	return err;
}

void mm_set_exec_info(struct mm *mm, const struct mm_exec_info *info)
{
	mm_wrlock(mm);
	mm->exec = *info;
	if (mm->exec.auxv_len > MM_AUXV_MAX)
		mm->exec.auxv_len = MM_AUXV_MAX;
	mm_unlock(mm);
}

const struct mm_exec_info *mm_exec_info(const struct mm *mm)
{
	return &mm->exec; /* set once at exec, before the guest runs */
}

size_t mm_code_files(const struct mm *mm, struct mm_code_file *out, size_t max)
{
	size_t n = 0;

	mm_rdlock(mm);
	for (size_t i = 0; i < mm->nvmas && n < max; i++) {
		const struct vma *v = &mm->vmas[i];

		/* never writable (VM_ACCOUNT is kept once set): its bytes
		 * are the file's */
		if (!v->file || v->shared || v->account || (v->prot & PROT_WRITE) ||
		    !(v->prot & PROT_EXEC))
			continue;
		out[n++] = (struct mm_code_file){
			.start = v->start, .end = v->end, .offset = v->offset,
			.dev = v->dev, .ino = v->ino,
			.mtime_ns = v->mtime_ns, .ctime_ns = v->ctime_ns,
		};
	}
	mm_unlock(mm);
	return n;
}
