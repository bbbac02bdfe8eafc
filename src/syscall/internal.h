/* The syscall module's files that still read core's thread and process
 * (struct sg_thread, struct sg_process) directly: handler.h plus
 * core/process.h and the signal module's header. A file that needs only
 * the handlers' narrow view includes syscall/handler.h instead (issue 21:
 * this header goes when no file includes it).
 */
#ifndef SG_SYSCALL_INTERNAL_H
#define SG_SYSCALL_INTERNAL_H

#include "core/process.h"
#include "signal/signal.h"
#include "syscall/handler.h"

#endif
