/* The CLI's side of the GDB stub (gdb_listen.c). */
#ifndef SG_CLI_GDB_LISTEN_H
#define SG_CLI_GDB_LISTEN_H

/* Listen on TCP port (every address; "0": any free one, printed) or on
 * the Unix socket path, accept one connection: its descriptor, or -1
 * with a message on stderr. */
int gdb_wait_connection(const char *port, const char *path);

#endif
