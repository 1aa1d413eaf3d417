#ifndef CTRAWLSYSTEM_H
#define CTRAWLSYSTEM_H

// System calls Swift cannot reach directly: macros it does not import (O_TMPFILE), calls that
// glibc declares only under _GNU_SOURCE (renameat2) or in headers its module leaves out (xattr),
// and a signal handler (which must be C).

#include <stddef.h>
#if defined(__linux__)
// Extended attributes: glibc's module for Swift leaves out <sys/xattr.h>.
#include <sys/xattr.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Opens an anonymous file in the folder open at `folder` for writing (Linux `O_TMPFILE`), or
/// returns -1 (with errno set) where that is unsupported.
int trawl_open_anonymous_file_at(int folder, unsigned int mode);

/// Opens the folder at `path` (links followed) to resolve paths below it: for reading, or where
/// it cannot be read but can be entered, as a path only (Linux `O_PATH`). Returns the descriptor,
/// or -1 with errno set.
int trawl_open_folder(const char *path);

/// Opens `relative` below the folder open at `folder` without following any symbolic link on the
/// way, the last component included, and without leaving the folder (Linux `openat2` with
/// `RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH`, or one component at a time with `O_NOFOLLOW` where the
/// kernel has no `openat2`; `O_NOFOLLOW_ANY` on Apple platforms). `relative` must not start with
/// `/`. Returns the descriptor, or -1 with errno set (ELOOP: a link on the way; EXDEV: a path
/// leaving the folder).
int trawl_open_beneath(int folder, const char *relative, int flags, unsigned int mode);

/// Swaps `first` and `second`, both in the folder open at `folder`, in one atomic step (Linux
/// `renameat2(RENAME_EXCHANGE)`, macOS `renameatx_np(RENAME_SWAP)`). Returns 0, or -1 with errno set
/// (EINVAL, ENOSYS or ENOTSUP where the file system or kernel cannot).
int trawl_exchange_at(int folder, const char *first, const char *second);

/// Links the open file `descriptor` (an anonymous file) as `name` in the folder open at `folder`.
/// Returns 0, or -1 with errno set.
int trawl_link_descriptor_at(int descriptor, int folder, const char *name);

/// Registers a read-only file mapping so that a SIGBUS inside it (the file shrank under it) does
/// not kill the process: the pages from the fault to the end of the mapping are replaced with zero
/// pages and the mapping is marked as faulted. Returns a slot number, or -1 when every slot is in
/// use (then do not map the file). Installs the handler on first use.
int trawl_guard_register(const void *base, size_t length);

/// A listening stream socket (non-blocking, close-on-exec) at the Linux abstract address `name`
/// (`length` bytes, no leading NUL: the address lives in no folder, so a long path or a read-only
/// tree cannot stop it, and it goes away with the process). Returns the descriptor, or -1 with
/// errno set (EADDRINUSE: another process listens there; EAFNOSUPPORT off Linux).
int trawl_listen_abstract(const char *name, size_t length);

/// Connects to the abstract address `name`, with sends and receives that give up after
/// `timeout_ms`. Returns the descriptor, or -1 with errno set.
int trawl_connect_abstract(const char *name, size_t length, int timeout_ms);

/// The user id of the process at the other end of a Unix socket, or -1.
long long trawl_peer_uid(int descriptor);

/// Whether the mapping in `slot` took a fault so far.
int trawl_guard_faulted(int slot);

/// Releases `slot` (before unmapping); returns whether the mapping took a fault.
int trawl_guard_unregister(int slot);

#ifdef __cplusplus
}
#endif

#endif
