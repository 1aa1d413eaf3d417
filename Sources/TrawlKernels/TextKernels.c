#include "TrawlKernels.h"
#include "Dispatch.h"
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef uint8_t v16u8 __attribute__((vector_size(16)));

static inline v16u8 load16(const uint8_t *p) {
    v16u8 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline size_t hsum(v16u8 acc) {
    size_t total = 0;
    for (int i = 0; i < 16; i++) total += acc[i];
    return total;
}

void trawl_count_text(const uint8_t *bytes, size_t count, trawl_text_counts *out) {
    size_t continuation = 0, fourByteLeads = 0, newlines = 0;
    size_t i = 0;
    const v16u8 nl = (v16u8){0} + '\n';
    const v16u8 mask = (v16u8){0} + 0xC0;
    const v16u8 cont = (v16u8){0} + 0x80;
    const v16u8 lead4 = (v16u8){0} + 0xEF;
    while (count - i >= 16) {
        // Byte lanes count at most 255 before they must be folded into the totals.
        size_t blocks = (count - i) / 16;
        if (blocks > 255) blocks = 255;
        v16u8 accNL = {0}, accCont = {0}, accLead = {0};
        for (size_t b = 0; b < blocks; b++, i += 16) {
            v16u8 v = load16(bytes + i);
            accNL -= (v16u8)(v == nl);
            accCont -= (v16u8)((v & mask) == cont);
            accLead -= (v16u8)(v > lead4);
        }
        newlines += hsum(accNL);
        continuation += hsum(accCont);
        fourByteLeads += hsum(accLead);
    }
    for (; i < count; i++) {
        uint8_t b = bytes[i];
        newlines += b == '\n';
        continuation += (b & 0xC0) == 0x80;
        fourByteLeads += b >= 0xF0;
    }
    out->scalars = count - continuation;
    out->utf16 = out->scalars + fourByteLeads;
    out->newlines = newlines;
}

size_t trawl_count_newlines(const uint8_t *bytes, size_t count) {
    size_t newlines = 0, i = 0;
    const v16u8 nl = (v16u8){0} + '\n';
    while (count - i >= 16) {
        size_t blocks = (count - i) / 16;
        if (blocks > 255) blocks = 255;
        v16u8 acc = {0};
        for (size_t b = 0; b < blocks; b++, i += 16) acc -= (v16u8)(load16(bytes + i) == nl);
        newlines += hsum(acc);
    }
    for (; i < count; i++) newlines += bytes[i] == '\n';
    return newlines;
}

#ifdef TRAWL_HAVE_AVX2_DISPATCH
#include <immintrin.h>
// The offset of the first 128-byte block holding a byte >= 0x80 (or, when asked, a NUL): the
// ASCII fast path, twice as wide as SSE2's (a quarter faster here, where SSE2 was not at memory speed).
__attribute__((target("avx2")))
static size_t ascii_prefix_avx2(const uint8_t *bytes, size_t count, int reject_nul) {
    size_t i = 0;
    for (; count - i >= 128; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(bytes + i)), b = _mm256_loadu_si256((const __m256i *)(bytes + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(bytes + i + 64)), d = _mm256_loadu_si256((const __m256i *)(bytes + i + 96));
        int bad = _mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d)));
        if (reject_nul) {
            __m256i least = _mm256_min_epu8(_mm256_min_epu8(a, b), _mm256_min_epu8(c, d));
            bad |= _mm256_movemask_epi8(_mm256_cmpeq_epi8(least, _mm256_setzero_si256()));
        }
        if (bad) break;
    }
    return i;
}
#endif

// Validation with an option to stop at NUL too (a NUL marks a binary file for the file reader);
// inlined into both entry points so each keeps a branch-free fast path.
static inline __attribute__((always_inline))
size_t utf8_validate(const uint8_t *bytes, size_t count, int reject_nul) {
    size_t i = 0;
    const v16u8 high = (v16u8){0} + 0x80;
    const v16u8 zero = (v16u8){0};
    while (i < count) {
        // ASCII fast path (and, when asked, no NUL), 128 or 64 then 16 bytes at a time.
#ifdef TRAWL_HAVE_AVX2_DISPATCH
        if (count - i >= 128 && trawl_has_avx2()) i += ascii_prefix_avx2(bytes + i, count - i, reject_nul);
#endif
#if defined(__SSE2__)
        // High bits straight from movemask; a NUL shows as a zero minimum.
        while (count - i >= 64) {
            __m128i a = _mm_loadu_si128((const __m128i *)(bytes + i)), b = _mm_loadu_si128((const __m128i *)(bytes + i + 16));
            __m128i c = _mm_loadu_si128((const __m128i *)(bytes + i + 32)), d = _mm_loadu_si128((const __m128i *)(bytes + i + 48));
            int bad = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)));
            if (reject_nul) {
                __m128i least = _mm_min_epu8(_mm_min_epu8(a, b), _mm_min_epu8(c, d));
                bad |= _mm_movemask_epi8(_mm_cmpeq_epi8(least, _mm_setzero_si128()));
            }
            if (bad) break;
            i += 64;
        }
#else
        while (count - i >= 64) {
            v16u8 a = load16(bytes + i), b = load16(bytes + i + 16), c = load16(bytes + i + 32), d = load16(bytes + i + 48);
            v16u8 bad = (a | b | c | d) & high;
            if (reject_nul) bad |= (v16u8)(a == zero) | (v16u8)(b == zero) | (v16u8)(c == zero) | (v16u8)(d == zero);
            uint64_t lo64, hi64;
            memcpy(&lo64, &bad, 8);
            memcpy(&hi64, (uint8_t *)&bad + 8, 8);
            if (lo64 | hi64) break;
            i += 64;
        }
#endif
#if defined(__SSE2__)
        // Then straight to the first byte that needs a look (not one byte at a time up to it).
        while (count - i >= 16) {
            __m128i a = _mm_loadu_si128((const __m128i *)(bytes + i));
            int bad = _mm_movemask_epi8(a);
            if (reject_nul) bad |= _mm_movemask_epi8(_mm_cmpeq_epi8(a, _mm_setzero_si128()));
            if (bad) {
                i += (size_t)__builtin_ctz((unsigned)bad);
                break;
            }
            i += 16;
        }
#else
        while (count - i >= 16) {
            v16u8 a = load16(bytes + i);
            v16u8 bad = a & high;
            if (reject_nul) bad |= (v16u8)(a == zero);
            uint64_t lo64, hi64;
            memcpy(&lo64, &bad, 8);
            memcpy(&hi64, (uint8_t *)&bad + 8, 8);
            if (lo64 | hi64) break;
            i += 16;
        }
#endif
        if (i >= count) break;
        uint8_t b = bytes[i];
        if (b < 0x80) {
            if (reject_nul && b == 0) return i;
            i++;
            continue;
        }
        size_t need;
        uint8_t lo = 0x80, hi = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) need = 1;
        else if (b == 0xE0) { need = 2; lo = 0xA0; }
        else if (b >= 0xE1 && b <= 0xEC) need = 2;
        else if (b == 0xED) { need = 2; hi = 0x9F; }
        else if (b >= 0xEE && b <= 0xEF) need = 2;
        else if (b == 0xF0) { need = 3; lo = 0x90; }
        else if (b >= 0xF1 && b <= 0xF3) need = 3;
        else if (b == 0xF4) { need = 3; hi = 0x8F; }
        else return i;
        if (count - i <= need) {
            // Truncated at the end unless a byte that is present is already wrong; either way the
            // sequence starting at i is the first bad one.
            return i;
        }
        uint8_t c1 = bytes[i + 1];
        if (c1 < lo || c1 > hi) return i;
        for (size_t k = 2; k <= need; k++) {
            if ((bytes[i + k] & 0xC0) != 0x80) return i;
        }
        i += need + 1;
    }
    return count;
}

size_t trawl_utf8_validate(const uint8_t *bytes, size_t count) { return utf8_validate(bytes, count, 0); }

size_t trawl_text_check(const uint8_t *bytes, size_t count) { return utf8_validate(bytes, count, 1); }

// Block masks: bit i is set when byte i of a 16-byte block has the property. SSE2 on x86-64 (the
// baseline, no dispatch needed); a portable loop elsewhere.
#if defined(__SSE2__)
static inline unsigned newline_mask(const uint8_t *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
}
static inline unsigned scalar_start_mask(const uint8_t *p) {
    // A byte starts a scalar unless it is 0b10xxxxxx, i.e. unless (signed) byte < -64.
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    return ~(unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8(-64))) & 0xFFFF;
}
static inline unsigned four_byte_lead_mask(const uint8_t *p) {
    // Lead bytes 0xF0...0xF4 are, as signed bytes, negative and >= -16.
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    return (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(-17))) & (unsigned)_mm_movemask_epi8(v);
}
#else
static inline unsigned newline_mask(const uint8_t *p) {
    unsigned m = 0;
    for (int i = 0; i < 16; i++) m |= (unsigned)(p[i] == '\n') << i;
    return m;
}
static inline unsigned scalar_start_mask(const uint8_t *p) {
    unsigned m = 0;
    for (int i = 0; i < 16; i++) m |= (unsigned)((p[i] & 0xC0) != 0x80) << i;
    return m;
}
static inline unsigned four_byte_lead_mask(const uint8_t *p) {
    unsigned m = 0;
    for (int i = 0; i < 16; i++) m |= (unsigned)(p[i] >= 0xF0) << i;
    return m;
}
#endif

/// The position of the `k`-th (0-based) set bit of `mask`.
static inline size_t select_bit(unsigned mask, size_t k) {
    while (k--) mask &= mask - 1;
    return (size_t)__builtin_ctz(mask);
}

size_t trawl_offset_after_newline(const uint8_t *bytes, size_t count, size_t n) {
    if (n == 0) return 0;
    size_t i = 0, seen = 0;
    for (; i + 16 <= count; i += 16) {
        unsigned m = newline_mask(bytes + i);
        size_t c = (size_t)__builtin_popcount(m);
        if (seen + c >= n) return i + select_bit(m, n - seen - 1) + 1;
        seen += c;
    }
    for (; i < count; i++) {
        if (bytes[i] == '\n' && ++seen == n) return i + 1;
    }
    return count;
}

size_t trawl_offset_after_newline_from_end(const uint8_t *bytes, size_t count, size_t n) {
    if (n == 0) return count;
    size_t i = count, seen = 0;
    while (i >= 16) {
        unsigned m = newline_mask(bytes + i - 16);
        size_t c = (size_t)__builtin_popcount(m);
        if (seen + c >= n) {
            // The (n - seen)-th set bit counted from the top.
            size_t k = n - seen;
            while (--k) m &= ~(1u << (31 - __builtin_clz(m)));
            return i - 16 + (size_t)(31 - __builtin_clz(m)) + 1;
        }
        seen += c;
        i -= 16;
    }
    while (i > 0) {
        i--;
        if (bytes[i] == '\n' && ++seen == n) return i + 1;
    }
    return 0;
}

size_t trawl_offset_of_scalar(const uint8_t *bytes, size_t count, size_t n) {
    // The answer is the start of scalar number n (0-based), or count.
    size_t i = 0, seen = 0;
    for (; i + 16 <= count; i += 16) {
        unsigned m = scalar_start_mask(bytes + i);
        size_t c = (size_t)__builtin_popcount(m);
        if (seen + c > n) return i + select_bit(m, n - seen);
        seen += c;
    }
    for (; i < count; i++) {
        if ((bytes[i] & 0xC0) != 0x80) {
            if (seen == n) return i;
            seen++;
        }
    }
    return count;
}

size_t trawl_offset_of_utf16(const uint8_t *bytes, size_t count, size_t n, int *inside_pair) {
    *inside_pair = 0;
    size_t i = 0, units = 0;
    // Skip whole blocks while they end before the target; a block never ends inside a scalar's
    // units count because we count units at lead bytes.
    for (; i + 16 <= count; i += 16) {
        size_t c = (size_t)__builtin_popcount(scalar_start_mask(bytes + i))
                 + (size_t)__builtin_popcount(four_byte_lead_mask(bytes + i));
        if (units + c > n) break;
        units += c;
    }
    // A scalar whose lead is in an earlier block may continue into this one: step past it.
    while (i < count && (bytes[i] & 0xC0) == 0x80) i++;
    for (; i < count; ) {
        if (units == n) return i;
        uint8_t lead = bytes[i];
        size_t width = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        size_t u = lead >= 0xF0 ? 2 : 1;
        if (units + u > n) { *inside_pair = 1; return i; }
        units += u;
        i += width;
    }
    return count;
}
