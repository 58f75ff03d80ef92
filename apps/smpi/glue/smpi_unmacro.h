// Force-included (after smpicxx's own smpi_helpers.h) into every SMPI-built source.
//
// 1. smpi_helpers.h turns exit(x) into a function-like macro, which also rewrites
//    member calls such as CLI11's app.exit(e); SMPI needs no exit() interception here.
// 2. SMPI runs all simulated ranks as cooperative user-level threads in one OS
//    thread: a rank spinning on a shared-memory flag (the core's SyncKind::flags,
//    lib/src/node_sync.cpp, which spins then calls sched_yield()) never lets the
//    rank it waits for run, and the simulation hangs. sched_yield() yields the OS
//    thread only. Here it becomes a short *simulated* sleep, which hands control
//    to the other simulated ranks and lets simulated time advance (a flag poll
//    then costs at most ~HYMPI_SMPI_POLL_US simulated microseconds of latency).
#pragma once
#ifdef exit
#undef exit
#endif

#ifdef __cplusplus
#include <sched.h>  // declared first, so the macro below only renames calls
extern "C" int hympi_smpi_yield(void);
#define sched_yield() hympi_smpi_yield()
#endif
