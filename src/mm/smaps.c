/* The guest's /proc/self/smaps, smaps_rollup and numa_maps: the host's
 * own files describe sysgate's mappings too, so the guest gets its VMAs
 * (the headers are its maps lines) with the host's numbers for the same
 * addresses. A host block that covers only part of a guest VMA (or more
 * than one) counts in proportion to the overlap, so the sizes add up;
 * they are exact where host and guest mappings coincide, which is the
 * rule (guest mappings are host mappings at the same addresses). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mm/mm_internal.h"

#define SMAPS_FIELDS_MAX 48
#define SMAPS_LINE_MAX (4096 + 128)

/* One mapping of the host's smaps: its range and the lines after its
 * header (pointers into the file's buffer, up to the next header). */
struct host_block {
	uint64_t start, end;
	const char *body, *body_end;
};

struct field_sum {
	char name[32];  /* "Rss" */
	unsigned __int128 bytes_x_len; /* sum of kB * overlap (divided at the end) */
	uint64_t kb;    /* the value itself for the fields that are not sums */
	bool fixed;     /* KernelPageSize, MMUPageSize: not summed */
};

static bool is_header(const char *line)
{
	return (*line >= '0' && *line <= '9') || (*line >= 'a' && *line <= 'f');
}

/* Blocks of a host smaps buffer, malloc'd; *n their number. */
static struct host_block *parse_host_smaps(const char *buf, size_t *n)
{
	size_t cap = 64, count = 0;
	struct host_block *b = malloc(cap * sizeof(*b));
	const char *p = buf;

	if (!b)
		return NULL;
	while (*p) {
		const char *eol = strchr(p, '\n');
		const char *next = eol ? eol + 1 : p + strlen(p);

		if (is_header(p)) {
			unsigned long long s, e;

			if (sscanf(p, "%llx-%llx", &s, &e) == 2) {
				if (count == cap) {
					struct host_block *nb = realloc(b, 2 * cap * sizeof(*b));

					if (!nb) {
						free(b);
						return NULL;
					}
					b = nb;
					cap *= 2;
				}
				if (count)
					b[count - 1].body_end = p;
				b[count].start = s;
				b[count].end = e;
				b[count].body = next;
				b[count].body_end = next;
				count++;
			}
		}
		p = next;
	}
	if (count)
		b[count - 1].body_end = p;
	*n = count;
	return b;
}

/* "Name:   123 kB" -> name and value; false for other lines. */
static bool parse_kb_line(const char *line, const char *eol, char *name,
			  size_t name_size, uint64_t *kb)
{
	const char *colon = memchr(line, ':', (size_t)(eol - line));
	char *end;

	if (!colon || (size_t)(colon - line) >= name_size || eol - line < 4 ||
	    memcmp(eol - 3, " kB", 3) != 0)
		return false;
	memcpy(name, line, (size_t)(colon - line));
	name[colon - line] = '\0';
	*kb = strtoull(colon + 1, &end, 10);
	return end != colon + 1;
}

static struct field_sum *field(struct field_sum *f, size_t *nf, const char *name)
{
	for (size_t i = 0; i < *nf; i++)
		if (strcmp(f[i].name, name) == 0)
			return &f[i];
	if (*nf == SMAPS_FIELDS_MAX)
		return NULL;
	memset(&f[*nf], 0, sizeof(f[*nf]));
	snprintf(f[*nf].name, sizeof(f[*nf].name), "%s", name);
	f[*nf].fixed = strcmp(name, "KernelPageSize") == 0 ||
		       strcmp(name, "MMUPageSize") == 0;
	return &f[(*nf)++];
}

/* Add the host blocks' numbers over [start, end) into f. Returns the
 * first block overlapping it (its other lines are the VMA's), or NULL. */
static const struct host_block *sum_range(const struct host_block *b, size_t nb,
					  uint64_t start, uint64_t end,
					  struct field_sum *f, size_t *nf)
{
	const struct host_block *first = NULL;

	for (size_t i = 0; i < nb; i++) {
		uint64_t lo = b[i].start > start ? b[i].start : start;
		uint64_t hi = b[i].end < end ? b[i].end : end;

		if (lo >= hi)
			continue;
		if (!first)
			first = &b[i];
		for (const char *p = b[i].body; p < b[i].body_end;) {
			const char *eol = memchr(p, '\n', (size_t)(b[i].body_end - p));
			char name[32];
			uint64_t kb;
			struct field_sum *s;

			if (!eol)
				eol = b[i].body_end;
			if (parse_kb_line(p, eol, name, sizeof(name), &kb) &&
			    (s = field(f, nf, name)) != NULL) {
				if (s->fixed)
					s->kb = kb;
				else
					s->bytes_x_len += (unsigned __int128)kb * (hi - lo) *
							  1024 / (b[i].end - b[i].start);
			}
			p = eol + 1;
		}
	}
	return first;
}

static int put_field(int fd, const char *name, uint64_t kb)
{
	char line[80], label[40];
	int n;

	snprintf(label, sizeof(label), "%.32s:", name);
	n = snprintf(line, sizeof(line), "%-16s%8" PRIu64 " kB\n", label, kb);
	return mm_write_all(fd, line, (size_t)n);
}

static uint64_t field_kb(const struct field_sum *s)
{
	return s->fixed ? s->kb : (uint64_t)(s->bytes_x_len / 1024);
}

/* The lines of a block that are not "N kB" fields (THPeligible,
 * ProtectionKey, VmFlags), as the host printed them. */
static int put_other_lines(int fd, const struct host_block *b)
{
	int err = 0;

	for (const char *p = b->body; p < b->body_end && !err;) {
		const char *eol = memchr(p, '\n', (size_t)(b->body_end - p));
		char name[32];
		uint64_t kb;

		eol = eol ? eol + 1 : b->body_end;
		if (!parse_kb_line(p, eol[-1] == '\n' ? eol - 1 : eol, name,
				   sizeof(name), &kb))
			err = mm_write_all(fd, p, (size_t)(eol - p));
		p = eol;
	}
	return err;
}

struct host_smaps {
	char *buf;
	struct host_block *blocks;
	size_t n;
};

static int host_smaps_read(struct host_smaps *h)
{
	h->buf = mm_read_proc_file("/proc/self/smaps", NULL);
	if (!h->buf)
		return -errno;
	h->blocks = parse_host_smaps(h->buf, &h->n);
	if (!h->blocks) {
		free(h->buf);
		return -ENOMEM;
	}
	return 0;
}

static void host_smaps_free(struct host_smaps *h)
{
	free(h->blocks);
	free(h->buf);
}

int mm_write_smaps(const struct mm *mm, int fd)
{
	struct host_smaps h;
	char line[SMAPS_LINE_MAX];
	int err = host_smaps_read(&h);

	if (err)
		return err;
	mm_rdlock(mm);
	for (size_t i = 0; i < mm->nvmas && !err; i++) {
		const struct vma *v = &mm->vmas[i];
		struct field_sum f[SMAPS_FIELDS_MAX];
		size_t nf = 0;
		const struct host_block *first;

		err = mm_write_all(fd, line, (size_t)mm_format_vma(mm, v, line, sizeof(line)));
		first = sum_range(h.blocks, h.n, v->start, v->end, f, &nf);
		for (size_t k = 0; k < nf && !err; k++)
			err = put_field(fd, f[k].name,
					strcmp(f[k].name, "Size") == 0 ?
						(v->end - v->start) / 1024 :
						field_kb(&f[k]));
		if (first && !err)
			err = put_other_lines(fd, first);
	}
	mm_unlock(mm);
	host_smaps_free(&h);
	return err;
}

/* The host's smaps_rollup names its fields; each is the sum over the
 * guest's VMAs, Pss_Anon/File/Shmem the Pss of those kinds of VMA. */
int mm_write_smaps_rollup(const struct mm *mm, int fd)
{
	struct host_smaps h;
	struct field_sum all[SMAPS_FIELDS_MAX];
	size_t nall = 0;
	unsigned __int128 pss_kind[3] = { 0 }; /* anon, file, shmem */
	char line[SMAPS_LINE_MAX], *rollup;
	int err = host_smaps_read(&h);

	if (err)
		return err;
	rollup = mm_read_proc_file("/proc/self/smaps_rollup", NULL);
	if (!rollup) {
		err = -errno;
		host_smaps_free(&h);
		return err;
	}
	mm_rdlock(mm);
	for (size_t i = 0; i < mm->nvmas; i++) {
		const struct vma *v = &mm->vmas[i];
		struct field_sum f[SMAPS_FIELDS_MAX];
		size_t nf = 0;
		unsigned kind = v->file ? 1 : v->shared ? 2 : 0;

		sum_range(h.blocks, h.n, v->start, v->end, f, &nf);
		for (size_t k = 0; k < nf; k++) {
			struct field_sum *s = field(all, &nall, f[k].name);

			if (s)
				s->bytes_x_len += f[k].bytes_x_len;
			if (strcmp(f[k].name, "Pss") == 0)
				pss_kind[kind] += f[k].bytes_x_len;
		}
	}
	if (mm->nvmas) {
		struct vma r = { .start = mm->vmas[0].start,
				 .end = mm->vmas[mm->nvmas - 1].end,
				 .name = "[rollup]" };

		err = mm_write_all(fd, line, (size_t)mm_format_vma(mm, &r, line, sizeof(line)));
	}
	for (const char *p = rollup; *p && !err && mm->nvmas;) {
		const char *eol = strchr(p, '\n');
		char name[32];
		uint64_t kb;

		if (!eol)
			eol = p + strlen(p);
		if (!is_header(p) && parse_kb_line(p, eol, name, sizeof(name), &kb)) {
			const struct field_sum *s = field(all, &nall, name);
			unsigned __int128 sum = s ? s->bytes_x_len : 0;

			if (strcmp(name, "Pss_Anon") == 0)
				sum = pss_kind[0];
			else if (strcmp(name, "Pss_File") == 0)
				sum = pss_kind[1];
			else if (strcmp(name, "Pss_Shmem") == 0)
				sum = pss_kind[2];
			err = put_field(fd, name, (uint64_t)(sum / 1024));
		}
		p = *eol ? eol + 1 : eol;
	}
	mm_unlock(mm);
	free(rollup);
	host_smaps_free(&h);
	return err;
}

/* numa_maps: one line per VMA, by its start address; the host's line for
 * the mapping that holds it, with the guest's address. A host without
 * NUMA has no such file: the same error for the guest. */
int mm_write_numa_maps(const struct mm *mm, int fd)
{
	char *host = mm_read_proc_file("/proc/self/numa_maps", NULL);
	int err = 0;

	if (!host)
		return -errno;
	mm_rdlock(mm);
	for (size_t i = 0; i < mm->nvmas && !err; i++) {
		const struct vma *v = &mm->vmas[i];
		const char *best = NULL;
		char head[24];
		int n;

		/* the last host line starting at or below v->start */
		for (const char *p = host; *p;) {
			const char *eol = strchr(p, '\n');
			unsigned long long s;

			if (sscanf(p, "%llx", &s) == 1 && s <= v->start)
				best = p;
			if (!eol)
				break;
			p = eol + 1;
		}
		n = snprintf(head, sizeof(head), "%08" PRIx64, v->start);
		err = mm_write_all(fd, head, (size_t)n);
		if (best && !err) {
			const char *rest = strchr(best, ' ');
			const char *eol = strchr(best, '\n');

			if (rest && (!eol || rest < eol))
				err = mm_write_all(fd, rest, (size_t)((eol ? eol + 1 : rest + strlen(rest)) - rest));
			else
				err = mm_write_all(fd, " default\n", 9);
		} else if (!err) {
			err = mm_write_all(fd, " default\n", 9);
		}
	}
	mm_unlock(mm);
	free(host);
	return err;
}
