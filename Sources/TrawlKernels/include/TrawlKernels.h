// Byte kernels that Swift cannot yet express with guaranteed vector code generation on every
// platform we support: counting text metrics, validating UTF-8 and finding literals at memory
// speed. Written as portable C with GCC/Clang vector extensions (SSE2 on x86-64, NEON on arm64),
// with AVX2 versions of the hottest loops chosen at run time.
#ifndef TRAWL_KERNELS_H
#define TRAWL_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Metrics of a run of valid UTF-8: UTF-16 code units, Unicode scalars, and line feeds.
typedef struct {
    size_t utf16;
    size_t scalars;
    size_t newlines;
} trawl_text_counts;

/// Counts the metrics of `count` bytes of valid UTF-8 (no validation is done).
void trawl_count_text(const uint8_t *bytes, size_t count, trawl_text_counts *out);

/// Returns `count` when the bytes are valid UTF-8, otherwise the offset of the first byte of the
/// first ill-formed or truncated sequence.
size_t trawl_utf8_validate(const uint8_t *bytes, size_t count);

/// Like `trawl_utf8_validate`, but a NUL byte also stops it: returns `count` for valid UTF-8 text
/// without NUL, otherwise the offset of the first NUL or ill-formed sequence (at the same speed).
size_t trawl_text_check(const uint8_t *bytes, size_t count);

/// Counts line feeds (0x0A) in `count` bytes.
size_t trawl_count_newlines(const uint8_t *bytes, size_t count);

/// The offset just past the `n`-th line feed (1-based) in `count` bytes, or `count` if there are
/// fewer than `n`.
size_t trawl_offset_after_newline(const uint8_t *bytes, size_t count, size_t n);

/// The offset just past the `n`-th line feed counted from the end (1-based), or 0 if there are
/// fewer than `n`.
size_t trawl_offset_after_newline_from_end(const uint8_t *bytes, size_t count, size_t n);

/// The byte offset of the first scalar boundary after `n` scalars of valid UTF-8 (`count` if the
/// bytes hold fewer).
size_t trawl_offset_of_scalar(const uint8_t *bytes, size_t count, size_t n);

/// The byte offset where the UTF-16 length of the preceding valid UTF-8 reaches `n` code units.
/// When `n` falls between the two halves of a surrogate pair, `*inside_pair` is set to 1 and the
/// offset of that scalar's first byte is returned; otherwise `*inside_pair` is 0.
size_t trawl_offset_of_utf16(const uint8_t *bytes, size_t count, size_t n, int *inside_pair);

/// The offset of the first byte in `bytes[0..<count]` equal to one of `set[0..<set_count]`
/// (1...16 distinct bytes), or `count` when there is none.
size_t trawl_find_any_byte(const uint8_t *bytes, size_t count, const uint8_t *set, size_t set_count);

/// The offset of the first occurrence of `byte`, or `count` (glibc's memchr where available).
size_t trawl_find_byte(const uint8_t *bytes, size_t count, uint8_t byte);

/// Asks the processor to start loading `count` bytes at `bytes` into cache (a hint; no effect on
/// results). Inline: a call would cost about what a seek's prefetch saves per tree level.
static inline void trawl_prefetch(const uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i += 64) __builtin_prefetch(bytes + i, 0, 3);
}

/// The offset of the first byte a JSON string must escape (a control byte, `"`, `\\` or DEL), or
/// `count` when there is none.
size_t trawl_find_json_escape(const uint8_t *bytes, size_t count);

/// The offset of the last occurrence of `byte`, or `count` when there is none.
size_t trawl_find_last_byte(const uint8_t *bytes, size_t count, uint8_t byte);

/// The first `i` in `0..<starts` where `(bytes[i + offset1] | fold1) == byte1` and
/// `(bytes[i + offset2] | fold2) == byte2`, or `starts` when there is none. A fold of 0x20 makes an
/// ASCII letter match in either case (the byte is then lowercase). The caller guarantees that
/// `bytes[starts - 1 + max(offset1, offset2)]` is readable.
size_t trawl_find_pair(const uint8_t *bytes, size_t starts,
                       size_t offset1, uint8_t fold1, uint8_t byte1,
                       size_t offset2, uint8_t fold2, uint8_t byte2);

/// A literal for `trawl_find_literal`: its bytes (`pattern`, lowercase where `folds` has 0x20, so
/// that `(text | fold) == pattern` matches an ASCII letter in either case) and the two bytes the
/// scan looks for first (rarest first, as for `trawl_find_pair`).
typedef struct {
    const uint8_t *pattern;
    const uint8_t *folds;
    size_t length;
    int has_folds;
    size_t offset1, offset2;
    uint8_t fold1, byte1, fold2, byte2;
} trawl_literal;

/// The first `i` in `0..<starts` where the literal occurs at `bytes + i`, or `starts` when it
/// occurs nowhere. The caller guarantees that `bytes[starts - 1 + length - 1]` is readable.
size_t trawl_find_literal(const uint8_t *bytes, size_t starts, const trawl_literal *literal);

/// The most literals `trawl_find_literals` takes.
#define TRAWL_MAX_LITERALS 8

/// The first `i` in `0..<starts` where one of `count` (1 to `TRAWL_MAX_LITERALS`) literals
/// occurs at `bytes + i`, or `starts` when none occurs; `*which` is then set to the index of
/// that literal (the lowest of those occurring at `i`). One pass over the bytes, whatever the
/// count. The caller guarantees that `bytes[starts - 1 + length - 1]` is readable for the longest.
size_t trawl_find_literals(const uint8_t *bytes, size_t starts, const trawl_literal *literals, size_t count, size_t *which);

#ifdef __cplusplus
}
#endif

#endif
