#define _GNU_SOURCE
#include "CTrawlSystem.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

int trawl_open_anonymous_file_at(int folder, unsigned int mode) {
#ifdef O_TMPFILE
    return openat(folder, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
#else
    (void)folder;
    (void)mode;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int trawl_open_folder(const char *path) {
    int opened = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
#if defined(__linux__) && defined(O_PATH)
    if (opened < 0 && errno == EACCES) opened = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
#endif
    return opened;
}

// One component at a time, none of them a link: for kernels without openat2.
static int open_beneath_by_components(int folder, const char *relative, int flags, mode_t mode) {
    char component[NAME_MAX + 1];
    int current = folder;
    const char *rest = relative;
    for (;;) {
        while (*rest == '/') rest++;
        const char *end = strchr(rest, '/');
        size_t length = end ? (size_t)(end - rest) : strlen(rest);
        const char *after = end;
        while (after && *after == '/') after++;
        int last = end == NULL || *after == '\0';
        if (length == 0 || length > NAME_MAX) {
            if (current != folder) close(current);
            errno = length == 0 ? ENOENT : ENAMETOOLONG;
            return -1;
        }
        memcpy(component, rest, length);
        component[length] = '\0';
        if (strcmp(component, "..") == 0) {
            if (current != folder) close(current);
            errno = EXDEV;
            return -1;
        }
        int next = last ? openat(current, component, flags | O_NOFOLLOW, mode)
                        : openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int saved = errno;
        if (current != folder) close(current);
        if (next < 0) {
            // O_NOFOLLOW on an intermediate link gives ENOTDIR on some systems: say what it is.
            errno = (!last && saved == ENOTDIR) ? ELOOP : saved;
            return -1;
        }
        if (last) return next;
        current = next;
        rest = after;
    }
}

int trawl_open_beneath(int folder, const char *relative, int flags, unsigned int mode) {
    if (relative[0] == '/') {
        errno = EXDEV;
        return -1;
    }
#if defined(__linux__)
#ifdef SYS_openat2
    struct {
        uint64_t flags;
        uint64_t mode;
        uint64_t resolve;
    } how = {(uint64_t)(flags | O_CLOEXEC), (flags & O_CREAT) ? (uint64_t)mode : 0, 0x04 /* RESOLVE_NO_SYMLINKS */ | 0x08 /* RESOLVE_BENEATH */};
    long result = syscall(SYS_openat2, folder, relative, &how, sizeof how);
    if (result >= 0 || (errno != ENOSYS && errno != EPERM)) return (int)result;
    // No openat2 here (or a seccomp filter refused it): one component at a time.
#endif
    return open_beneath_by_components(folder, relative, flags | O_CLOEXEC, (mode_t)mode);
#elif defined(__APPLE__)
    if (strstr(relative, "..") != NULL) return open_beneath_by_components(folder, relative, flags | O_CLOEXEC, (mode_t)mode);
    return openat(folder, relative, flags | O_CLOEXEC | O_NOFOLLOW_ANY, (mode_t)mode);
#else
    return open_beneath_by_components(folder, relative, flags | O_CLOEXEC, (mode_t)mode);
#endif
}

int trawl_exchange_at(int folder, const char *first, const char *second) {
#if defined(__linux__)
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
    return (int)syscall(SYS_renameat2, folder, first, folder, second, RENAME_EXCHANGE);
#elif defined(__APPLE__)
    return renameatx_np(folder, first, folder, second, RENAME_SWAP);
#else
    (void)folder;
    (void)first;
    (void)second;
    errno = ENOTSUP;
    return -1;
#endif
}

int trawl_link_descriptor_at(int descriptor, int folder, const char *name) {
#if defined(__linux__)
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", descriptor);
    return linkat(AT_FDCWD, path, folder, name, AT_SYMLINK_FOLLOW);
#else
    (void)descriptor;
    (void)folder;
    (void)name;
    errno = ENOTSUP;
    return -1;
#endif
}

// ---- SIGBUS guard for memory-mapped files ----
//
// A fixed table of slots, read by the signal handler without locks. A slot is claimed by a CAS on
// its base; the handler only reads bases and lengths and sets the faulted flag.

#define GUARD_SLOTS 256

struct guard_slot {
    _Atomic uintptr_t base;
    _Atomic size_t length;
    _Atomic int faulted;
};

static struct guard_slot guard_slots[GUARD_SLOTS];
static struct sigaction previous_bus_action;
// Read once at install: sysconf is not async-signal-safe.
static uintptr_t page_size = 4096;
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

static void guard_handler(int signal, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t base = atomic_load(&guard_slots[i].base);
        size_t length = atomic_load(&guard_slots[i].length);
        // A slot released and claimed again between the two loads would pair one mapping's base
        // with another's length: the base must still be the same after the length was read.
        if (base <= 1 || atomic_load(&guard_slots[i].base) != base) continue;
        if (address < base || address >= base + length) continue;
        uintptr_t start = address & ~(page_size - 1);
        uintptr_t end = (base + length + page_size - 1) & ~(page_size - 1);
        // Zero pages from the fault to the end: the access that faulted reads zeros on return.
        void *result = mmap((void *)start, end - start, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (result != MAP_FAILED) {
            atomic_store(&guard_slots[i].faulted, 1);
            return;
        }
        break;
    }
    // Not ours (or the remap failed): hand over to whoever handled SIGBUS before.
    if (previous_bus_action.sa_flags & SA_SIGINFO) {
        if (previous_bus_action.sa_sigaction) { previous_bus_action.sa_sigaction(signal, info, context); return; }
    } else if (previous_bus_action.sa_handler != SIG_DFL && previous_bus_action.sa_handler != SIG_IGN) {
        previous_bus_action.sa_handler(signal);
        return;
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigaction(SIGBUS, &fallback, NULL);
    // Returning re-runs the faulting access, which now kills the process as it would have.
}

static void guard_install(void) {
    long page = sysconf(_SC_PAGESIZE);
    if (page > 0) page_size = (uintptr_t)page;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = guard_handler;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous_bus_action);
}

int trawl_guard_register(const void *base, size_t length) {
    pthread_once(&guard_once, guard_install);
    for (int i = 0; i < GUARD_SLOTS; i++) {
        uintptr_t expected = 0;
        if (atomic_compare_exchange_strong(&guard_slots[i].base, &expected, (uintptr_t)1)) {
            // Claimed: base 1 with length 0 contains no address until the real values are stored.
            atomic_store(&guard_slots[i].faulted, 0);
            atomic_store(&guard_slots[i].length, length);
            atomic_store(&guard_slots[i].base, (uintptr_t)base);
            return i;
        }
    }
    return -1;
}

int trawl_guard_faulted(int slot) {
    if (slot < 0 || slot >= GUARD_SLOTS) return 0;
    return atomic_load(&guard_slots[slot].faulted);
}

int trawl_guard_unregister(int slot) {
    if (slot < 0 || slot >= GUARD_SLOTS) return 0;
    int faulted = atomic_load(&guard_slots[slot].faulted);
    atomic_store(&guard_slots[slot].length, 0);
    atomic_store(&guard_slots[slot].base, 0);
    return faulted;
}

// The watcher's socket: an abstract Unix address (Linux), the name given without its leading NUL.
static int abstract_address(const char *name, size_t length, struct sockaddr_un *address, socklen_t *size) {
#if defined(__linux__)
    if (length + 1 > sizeof(address->sun_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memset(address, 0, sizeof(*address));
    address->sun_family = AF_UNIX;
    memcpy(address->sun_path + 1, name, length);
    *size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + length);
    return 0;
#else
    (void)name;
    (void)length;
    (void)address;
    (void)size;
    errno = EAFNOSUPPORT;
    return -1;
#endif
}

#if defined(__linux__)
/// Closes a socket that failed to set up; returns -1 with the failure's errno.
static int close_keeping_errno(int descriptor) {
    int code = errno;
    close(descriptor);
    errno = code;
    return -1;
}
#endif

int trawl_listen_abstract(const char *name, size_t length) {
    struct sockaddr_un address;
    socklen_t size;
    if (abstract_address(name, length, &address, &size) != 0) return -1;
#if defined(__linux__)
    int descriptor = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (descriptor < 0) return -1;
    if (bind(descriptor, (struct sockaddr *)&address, size) != 0 || listen(descriptor, 64) != 0) {
        return close_keeping_errno(descriptor);
    }
    return descriptor;
#else
    return -1;
#endif
}

int trawl_connect_abstract(const char *name, size_t length, int timeout_ms) {
    struct sockaddr_un address;
    socklen_t size;
    if (abstract_address(name, length, &address, &size) != 0) return -1;
#if defined(__linux__)
    int descriptor = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (descriptor < 0) return -1;
    struct timeval timeout = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
    if (setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) != 0
        || setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout)) != 0
        || connect(descriptor, (struct sockaddr *)&address, size) != 0) {
        return close_keeping_errno(descriptor);
    }
    return descriptor;
#else
    return -1;
#endif
}

long long trawl_peer_uid(int descriptor) {
#if defined(__linux__)
    struct ucred credentials;
    socklen_t size = sizeof(credentials);
    if (getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return -1;
    return (long long)credentials.uid;
#elif defined(__APPLE__)
    uid_t uid;
    gid_t gid;
    if (getpeereid(descriptor, &uid, &gid) != 0) return -1;
    return (long long)uid;
#else
    (void)descriptor;
    return -1;
#endif
}
