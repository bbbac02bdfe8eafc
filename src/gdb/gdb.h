/* The GDB remote stub (docs/gdb.md): the pieces other files of the module
 * and its unit test share. The stub itself is the public sg_gdb_attach
 * (include/sysgate.h). */
#ifndef SG_GDB_H
#define SG_GDB_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysgate.h"

struct sg_process;
struct sg_thread;

/* --- packet.c: the remote serial protocol's framing ------------------- */

/* The sum of the bytes modulo 256: the two hex digits after '#'. */
uint8_t rsp_checksum(const char *data, size_t len);
/* Frame len bytes as "$data#cs" into out (size outsz): the framed
 * length, or 0 when it does not fit. data is sent as it is: binary
 * bodies are escaped first (rsp_escape), the others never hold '$', '#',
 * '}' or '*'. */
size_t rsp_frame(char *out, size_t outsz, const char *data, size_t len);
/* Undo the escapes of a received packet body in place; returns the new
 * length. */
size_t rsp_unescape(char *data, size_t len);
/* Escape binary data for a reply body (qXfer, vFile): at most outsz bytes
 * written; *used says how many input bytes went in. */
size_t rsp_escape(char *out, size_t outsz, const uint8_t *in, size_t len,
		  size_t *used);
/* Hex: two digits per byte; rsp_unhex returns the bytes written, or -1. */
void rsp_hex(char *out, const uint8_t *in, size_t len);
long rsp_unhex(uint8_t *out, size_t outsz, const char *hex, size_t hexlen);

/* The parser of a received stream: feed it bytes; it says when a whole
 * packet (checksum checked) or a Ctrl-C came in. */
enum rsp_event { RSP_NONE, RSP_PACKET, RSP_BAD_CHECKSUM, RSP_INTERRUPT, RSP_ACK, RSP_NAK };
#define RSP_MAX_PACKET 0x10000
struct rsp_reader {
	enum { RSP_IDLE, RSP_BODY, RSP_CS1, RSP_CS2 } state;
	char buf[RSP_MAX_PACKET];
	size_t len;
	uint8_t sum, got;
	bool overflow;
};
enum rsp_event rsp_feed(struct rsp_reader *r, char c);

/* --- tdesc.c: target descriptions ------------------------------------- */

/* target.xml for the ABI: its registers in the order of the g packet. */
const char *tdesc_xml(enum sg_abi abi);

/* --- registers.c: g/G/p/P --------------------------------------------- */

/* The number of registers and the g packet's length in bytes. */
unsigned regs_count(enum sg_abi abi);
size_t regs_size(enum sg_abi abi);
/* One register's bytes (target order, little-endian): its size, or 0 for
 * a number out of range. */
size_t regs_read(const struct sg_thread *t, enum sg_abi abi, unsigned n, uint8_t *out);
bool regs_write(struct sg_thread *t, enum sg_abi abi, unsigned n, const uint8_t *in);

/* --- stop kinds (sg_debug_thread.stop_kind) ---------------------------- */
enum gdb_stop_kind {
	GDB_STOP_NONE,
	GDB_STOP_STEP,        /* a single step done */
	GDB_STOP_BREAK,       /* a breakpoint's INT3 (Z0's or gdb's own via M):
				 rip back on it */
	GDB_STOP_WATCH,       /* a watchpoint: stop_addr */
	GDB_STOP_RWATCH,
	GDB_STOP_AWATCH,
	GDB_STOP_SIGNAL,      /* stop_addr: the signal */
	GDB_STOP_INTERRUPT,   /* Ctrl-C */
	GDB_STOP_EXEC,        /* the first stop of an image exec'd under gdb */
	GDB_STOP_CREATE,      /* a new thread, before its first instruction */
	GDB_STOP_FORK,        /* a fork (stop_addr: the child's pid) */
	GDB_STOP_VFORK,
	GDB_STOP_VFORKDONE,   /* the vfork child has exec'd or exited */
};

#endif
