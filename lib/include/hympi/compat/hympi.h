/* The 0.1 spelling `#include <hympi.h>`: the hympi package puts this directory on
 * the include path (pkg-config cflags, the CMake targets), so programs written for
 * 0.1 compile unchanged without a header at the top of <prefix>/include. New code
 * includes <hympi/hympi.h>. */
#include "hympi/hympi.h"
