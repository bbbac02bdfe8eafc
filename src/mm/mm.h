/* Guest address space: reservations, guest mappings (VMAs), brk, and the
 * checked access helpers every other module uses for guest pointers.
 *
 * Guest virtual address == host virtual address (DESIGN.md, Guest memory).
 * i386 and x32 guests live in the low 4 GiB, which mm_create() reserves
 * PROT_NONE; x86_64 guests share the host's 47-bit space with sysgate.
 */
#ifndef SG_MM_H
#define SG_MM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>

struct mm;

/* An AddressSanitizer build: gcc says so with __SANITIZE_ADDRESS__, clang
 * (14) only through __has_feature (the libFuzzer builds). Its shadow takes
 * part of the low 4 GiB (reserve.c); its leak checker must be told where
 * the CPU's mmap'd pools point into the heap (cpu/cache.c); its handlers
 * return to the run loop instead of dispatching (cpu/cache.h). */
#if defined(__SANITIZE_ADDRESS__)
#define SG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SG_ASAN 1
#endif
#endif

#define MM_LOW4G_END 0x100000000ull
#define MM_PAGE_SIZE 4096ull
#define MM_PAGE_ALIGN_UP(x) (((x) + MM_PAGE_SIZE - 1) & ~(MM_PAGE_SIZE - 1))
#define MM_PAGE_ALIGN_DOWN(x) ((x) & ~(MM_PAGE_SIZE - 1))

/* low4g: reserve and allocate inside [mmap_min_addr, 4 GiB) (i386, x32).
 * Returns NULL with errno set on failure (e.g. the range is taken). */
struct mm *mm_create(bool low4g);
void mm_destroy(struct mm *mm);
bool mm_is_low4g(const struct mm *mm);
/* The address space sysgate reserves for its own use at start-up (the flat
 * page map's 32 GiB, the low 4 GiB's reservation of a low4g space): the
 * part of the host's RLIMIT_AS that is not the guest's (docs/syscalls.md,
 * RLIMIT_AS). */
uint64_t mm_own_reserved(const struct mm *mm);
/* x86_64's TASK_SIZE with 4-level paging, the end of the host's user
 * address space too: the kernel's bound for user pointers, FS/GS bases
 * (arch_prctl, CLONE_SETTLS); compat tasks get 0xffffe000. */
#define MM_X64_TASK_SIZE 0x7ffffffff000ull
/* Highest guest address + 1: 0xffffe000 for low4g (a compat task's
 * TASK_SIZE), 0x7ffffffff000 for x86_64. */
uint64_t mm_task_size(const struct mm *mm);
/* low4g: where the main stack's top goes (just below TASK_SIZE; lower when
 * a sanitizer runtime occupies part of the low 4 GiB). 0 for x86_64: the
 * host chooses. */
uint64_t mm_stack_top(const struct mm *mm);

/* Guest mmap/munmap/mprotect/mremap semantics. Results are the guest
 * address or -errno, as the syscall returns them. MAP_FIXED over memory
 * that is not the guest's is refused with -ENOMEM (x86_64). Each call
 * keeps the VMA list (and /proc/self/maps emulation) up to date. (mm knows
 * nothing of the CPU: callers invalidate decoded code themselves.) */
long mm_mmap(struct mm *mm, uint64_t addr, uint64_t len, int prot, int flags,
	     int fd, off_t off);
long mm_munmap(struct mm *mm, uint64_t addr, uint64_t len);
long mm_mprotect(struct mm *mm, uint64_t addr, uint64_t len, int prot);
long mm_mremap(struct mm *mm, uint64_t old, uint64_t old_len, uint64_t new_len,
	       int flags, uint64_t new_addr);

/* Emulated brk: mm_brk_init sets the start (end of the program's bss,
 * page aligned by the caller as the kernel does); mm_brk is the syscall. */
void mm_brk_init(struct mm *mm, uint64_t start);
uint64_t mm_brk(struct mm *mm, uint64_t new_brk);
uint64_t mm_brk_start(const struct mm *mm);

/* READ_IMPLIES_EXEC (a 32-bit program without PT_GNU_STACK, as the
 * kernel's elf_read_implies_exec): from now on mmap and mprotect add
 * PROT_EXEC to PROT_READ, so such a program's data and heap stay
 * executable under NX as natively. */
void mm_set_read_implies_exec(struct mm *mm, bool on);

/* Name guest VMAs in [addr, addr+len) for /proc/self/maps ("[stack]",
 * "[vdso]"); name NULL clears. 0 or -ENOMEM. */
int mm_name_range(struct mm *mm, uint64_t addr, uint64_t len, const char *name);

/* Is [addr, addr+len) entirely guest memory with at least prot
 * (PROT_READ / PROT_WRITE; 0: any mapping, PROT_NONE included)? len 0 is
 * always valid. */
bool mm_access_ok(const struct mm *mm, uint64_t addr, uint64_t len, int prot);

/* How many bytes from addr (at most len) are guest memory with prot: the
 * part of a buffer the kernel would copy before it faults (always up to a
 * page boundary, or len). */
uint64_t mm_access_prefix(const struct mm *mm, uint64_t addr, uint64_t len,
			  int prot);

/* The first guest address >= addr that is mapped (any protection), or
 * UINT64_MAX. */
uint64_t mm_next_mapped(const struct mm *mm, uint64_t addr);

/* Called by mm_access_ok for every valid PROT_WRITE range: the host kernel
 * (or sysgate) is about to write there on the guest's behalf (read(2) into
 * a buffer...), so the CPU drops decoded code on those pages. */
void mm_set_write_hook(void (*hook)(uint64_t addr, uint64_t len));

/* Called after the guest's mappings changed over [addr, addr+len): a
 * MAP_FIXED mmap over what was there, munmap, mprotect (the part that
 * changed), mremap's old and new ranges, a brk that shrinks. The CPU
 * subscribes (cpu_init) and drops decoded code there: new contents, or
 * no longer executable. One subscriber. */
void mm_set_map_hook(void (*hook)(uint64_t addr, uint64_t len));

/* The guest page map (page_map.c, docs/isolation.md): a byte per 4 KiB
 * page of the 47-bit space, one table of MM_PAGE_MAP_PAGES bytes per GiB
 * (NULL: none yet). mm sets MM_PAGE_GUEST on the pages of every guest
 * mapping that is not PROT_NONE; the CPU sets MM_PAGE_CODE where it keeps
 * decoded code. A guest store goes straight to the host only where its
 * page reads exactly MM_PAGE_GUEST; anything else is the CPU's slow path,
 * which asks the VMA list (mm_access_ok) before it lets the store through.
 * The map is global: guest addresses are host addresses, so every mm of
 * the host process marks the one map. */
#define MM_PAGE_MAP_L1 (1u << 17)
#define MM_PAGE_MAP_PAGES (1u << 18)
enum { MM_PAGE_GUEST = 1, MM_PAGE_CODE = 2 };
#ifdef SG_PAGE_MAP_LOW_MAPPED
/* mapped at start-up too, like mm_page_map_low below: 1 MiB less of image,
 * which the profiling build needs (docs/performance.md, valgrind) */
extern uint8_t **mm_page_map;
#else
extern uint8_t *mm_page_map[MM_PAGE_MAP_L1];
#endif
/* The first four GiBs' tables are one array (1 MiB, zero pages until
 * marked), so a store whose address is known to be 32-bit (the flat-32
 * address shape: i386's base + disp operands, x32's 67h ones) finds its
 * page's byte at mm_page_map_low[addr >> 12], one load, where the others
 * load their GiB's table first and test it for NULL. In the image's bss,
 * so that its address is a constant: a pointer to it (SG_PAGE_MAP_LOW_MAPPED,
 * the builds without a static PIE: CMakeLists.txt) costs a load of its
 * own, which measured as much as the load it saves (docs/history.md). */
#define MM_PAGE_MAP_LOW_GIBS 4u
#ifdef SG_PAGE_MAP_LOW_MAPPED
extern uint8_t *mm_page_map_low;
#else
extern uint8_t mm_page_map_low[MM_PAGE_MAP_LOW_GIBS * MM_PAGE_MAP_PAGES];
#endif
/* The whole 47-bit space's bytes as one flat array too (32 GiB of
 * address space, reserved MAP_NORESERVE and read-only until a GiB's part
 * is used): a 64-bit store finds its page's byte at
 * mm_page_flat.map[(addr >> 12) & mm_page_flat.mask], one load that depends
 * on the address, where the tables cost two dependent loads and a NULL
 * test. Above 4 GiB a GiB's table is its slice of this array; below, the
 * slice is a mirror of mm_page_map_low kept by every writer
 * (mm_page_map_mirror). A byte here may read "not plain" where the table
 * says plain (a GiB with the shared table), never the other way round.
 * Without the reservation (RLIMIT_AS) the mask is 0 and the array one
 * byte that is never plain: every 64-bit store takes the slow path. */
struct mm_page_flat {
	const uint8_t *map;
	uint64_t mask;
};
/* hidden: one RIP-relative load each, not the GOT's address first */
extern struct mm_page_flat mm_page_flat __attribute__((visibility("hidden")));
/* The table of addr's GiB, made (all zero) if there is none yet; NULL when
 * the host has no memory for it. */
uint8_t *mm_page_map_table(uint64_t addr);
/* The flat map's copy of addr's GiB's table where the flat map keeps one
 * (the low 4 GiB), else NULL: a writer of a byte of mm_page_map_low
 * makes the same change there after it. */
uint8_t *mm_page_map_mirror(uint64_t addr);

/* Host pointer for a guest address (identity; one place for the policy). */
static inline void *g2h(uint64_t guest_addr)
{
	return (void *)(uintptr_t)guest_addr;
}

static inline uint64_t h2g(const void *host_ptr)
{
	return (uint64_t)(uintptr_t)host_ptr;
}

/* Checked copies: 0 or -EFAULT. copy_to_guest writes the part before an
 * inaccessible page, as the kernel's copy_to_user does, before -EFAULT. */
int copy_from_guest(const struct mm *mm, void *dst, uint64_t src, size_t n);
int copy_to_guest(const struct mm *mm, uint64_t dst, const void *src, size_t n);
/* Copy a NUL-terminated guest string of at most max bytes (incl. NUL) into
 * dst: length without the NUL, -EFAULT, or -ENAMETOOLONG. */
long strncpy_from_guest(const struct mm *mm, char *dst, uint64_t src, size_t max);

/* Write the guest's /proc/self/maps view to fd (lines as the kernel prints). */
int mm_write_maps(const struct mm *mm, int fd);
/* ... smaps, smaps_rollup and numa_maps (smaps.c): the guest's VMAs with
 * the host's numbers for their addresses. 0 or -errno. */
int mm_write_smaps(const struct mm *mm, int fd);
int mm_write_smaps_rollup(const struct mm *mm, int fd);
int mm_write_numa_maps(const struct mm *mm, int fd);

/* What exec leaves for /proc/self/{cmdline,environ,auxv}; the kernel keeps
 * the same facts in its mm: where the argument and environment strings
 * are on the initial stack (read live, as the kernel does), and the auxv
 * bytes exactly as /proc/self/auxv gives them (saved at exec). */
#define MM_AUXV_MAX 512
struct mm_exec_info {
	uint64_t arg_start, arg_end, env_start, env_end;
	uint8_t auxv[MM_AUXV_MAX];
	size_t auxv_len;
};
void mm_set_exec_info(struct mm *mm, const struct mm_exec_info *info);
const struct mm_exec_info *mm_exec_info(const struct mm *mm);

/* A private mapping of a file that was never writable and is executable:
 * its bytes are the file's at [offset, offset + end - start), so code
 * decoded there is good for another mapping of the same file version at
 * the same place (an execve in place keeps it: core/exec_image.c). */
struct mm_code_file {
	uint64_t start, end, offset;
	uint64_t dev, ino, mtime_ns, ctime_ns;
};
/* Up to max of them, by address; how many. */
size_t mm_code_files(const struct mm *mm, struct mm_code_file *out, size_t max);

/* Randomise the layout as the kernel does for a task with PF_RANDOMIZE
 * (before anything is mapped): low4g moves the stack top down by up to
 * 8 MiB and mmap_base by up to 1 MiB more (compat: 11 and 8 random page
 * bits); x86_64 has nothing to move (the host's mmap places everything). */
void mm_randomize(struct mm *mm);

#endif
