/* The signal module's files that still read core's thread and process
 * (struct sg_thread, struct sg_process) directly: signal.h plus
 * core/process.h. signal.h itself declares them only, so the syscall
 * files that include it do not see core's structs (issue 21: this header
 * goes when what the module reads comes through its own state or core's
 * hooks). */
#ifndef SG_SIGTHREAD_H
#define SG_SIGTHREAD_H

#include "core/process.h"
#include "signal/signal.h"

#endif
