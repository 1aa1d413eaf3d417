#define _GNU_SOURCE
#include "TrawlKernels.h"
#include <errno.h>
#include <fcntl.h>

int trawl_open_anonymous_file(const char *directory, unsigned int mode) {
#ifdef O_TMPFILE
    return open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
#else
    (void)directory;
    (void)mode;
    errno = EOPNOTSUPP;
    return -1;
#endif
}
