/* Starts a request, then waits (even rounds) or polls hympi_test (odd rounds): the C
   tests cover both ways to complete. Returns nonzero when a call fails. */
#ifndef HYMPI_TEST_C_DRIVE_H
#define HYMPI_TEST_C_DRIVE_H
#include <hympi.h>

static inline int drive(hympi_request_t req, int it) {
  if (hympi_start(req)) return 1;
  if (it % 2 == 0) return hympi_wait(req);
  int flag = 0;
  while (!flag)
    if (hympi_test(req, &flag)) return 1;
  return 0;
}

#endif
