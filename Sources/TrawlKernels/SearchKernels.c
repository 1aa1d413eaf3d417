#define _GNU_SOURCE
#include "TrawlKernels.h"
#include "Dispatch.h"
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

size_t trawl_find_byte(const uint8_t *bytes, size_t count, uint8_t byte) {
    const uint8_t *hit = memchr(bytes, byte, count);
    return hit ? (size_t)(hit - bytes) : count;
}

size_t trawl_find_last_byte(const uint8_t *bytes, size_t count, uint8_t byte) {
#if defined(__GLIBC__)
    const uint8_t *hit = memrchr(bytes, byte, count);
    return hit ? (size_t)(hit - bytes) : count;
#else
    for (size_t i = count; i > 0; i--) {
        if (bytes[i - 1] == byte) return i - 1;
    }
    return count;
#endif
}

size_t trawl_find_any_byte(const uint8_t *bytes, size_t count, const uint8_t *set, size_t set_count) {
    if (set_count == 1) return trawl_find_byte(bytes, count, set[0]);
    size_t i = 0;
#if defined(__SSE2__)
    __m128i needles[16];
    for (size_t k = 0; k < set_count; k++) needles[k] = _mm_set1_epi8((char)set[k]);
    for (; i + 32 <= count; i += 32) {
        __m128i a = _mm_loadu_si128((const __m128i *)(bytes + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(bytes + i + 16));
        __m128i hitA = _mm_cmpeq_epi8(a, needles[0]);
        __m128i hitB = _mm_cmpeq_epi8(b, needles[0]);
        for (size_t k = 1; k < set_count; k++) {
            hitA = _mm_or_si128(hitA, _mm_cmpeq_epi8(a, needles[k]));
            hitB = _mm_or_si128(hitB, _mm_cmpeq_epi8(b, needles[k]));
        }
        unsigned mask = (unsigned)_mm_movemask_epi8(hitA) | ((unsigned)_mm_movemask_epi8(hitB) << 16);
        if (mask) return i + (size_t)__builtin_ctz(mask);
    }
#endif
    for (; i < count; i++) {
        for (size_t k = 0; k < set_count; k++) {
            if (bytes[i] == set[k]) return i;
        }
    }
    return count;
}

size_t trawl_find_json_escape(const uint8_t *bytes, size_t count) {
    size_t i = 0;
#if defined(__SSE2__)
    // A byte needs an escape when it is below 0x20 (unsigned: min(b, 0x1F) == b), '"', '\\' or DEL.
    const __m128i control = _mm_set1_epi8(0x1F), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'),
                  del = _mm_set1_epi8(0x7F);
    for (; i + 16 <= count; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + i));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, control), v), _mm_cmpeq_epi8(v, quote)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, del)));
        unsigned mask = (unsigned)_mm_movemask_epi8(hit);
        if (mask) return i + (size_t)__builtin_ctz(mask);
    }
#endif
    for (; i < count; i++) {
        uint8_t b = bytes[i];
        if (b < 0x20 || b == '"' || b == '\\' || b == 0x7F) return i;
    }
    return count;
}

#ifdef TRAWL_HAVE_AVX2_DISPATCH
#include <immintrin.h>
// One 32-byte step of the pair test: a lane is set where both bytes match at their offsets.
#define PAIR_STEP_AVX2(p) _mm256_and_si256( \
    _mm256_cmpeq_epi8(_mm256_or_si256(_mm256_loadu_si256((const __m256i *)(bytes + (p) + offset1)), f1), t1), \
    _mm256_cmpeq_epi8(_mm256_or_si256(_mm256_loadu_si256((const __m256i *)(bytes + (p) + offset2)), f2), t2))

// AVX2, chosen at run time, so the binary still runs on SSE2-only CPUs. 128 bytes a step with one
// branch, as glibc's memchr does: measured 8.3 GB/s on 100 MB of Swift against 6.9 at 64 bytes a
// step (memchr: 10.4). The prefetch 1 KB ahead reaches into the next leaf of a rope: on 2 KB
// chunks it measured 8.1 GB/s against 7.4 without.
__attribute__((target("avx2")))
static size_t find_pair_avx2(const uint8_t *bytes, size_t starts,
                             size_t offset1, uint8_t fold1, uint8_t byte1,
                             size_t offset2, uint8_t fold2, uint8_t byte2) {
    size_t i = 0;
    const __m256i f1 = _mm256_set1_epi8((char)fold1), t1 = _mm256_set1_epi8((char)byte1);
    const __m256i f2 = _mm256_set1_epi8((char)fold2), t2 = _mm256_set1_epi8((char)byte2);
    for (; i + 128 <= starts; i += 128) {
        _mm_prefetch((const char *)(bytes + i + 1024), _MM_HINT_T0);
        __m256i s0 = PAIR_STEP_AVX2(i), s1 = PAIR_STEP_AVX2(i + 32);
        __m256i s2 = PAIR_STEP_AVX2(i + 64), s3 = PAIR_STEP_AVX2(i + 96);
        __m256i any = _mm256_or_si256(_mm256_or_si256(s0, s1), _mm256_or_si256(s2, s3));
        if (!_mm256_testz_si256(any, any)) {
            uint64_t mask = (uint32_t)_mm256_movemask_epi8(s0) | ((uint64_t)(uint32_t)_mm256_movemask_epi8(s1) << 32);
            if (mask) return i + (size_t)__builtin_ctzll(mask);
            mask = (uint32_t)_mm256_movemask_epi8(s2) | ((uint64_t)(uint32_t)_mm256_movemask_epi8(s3) << 32);
            return i + 64 + (size_t)__builtin_ctzll(mask);
        }
    }
    for (; i + 32 <= starts; i += 32) {
        uint32_t mask = (uint32_t)_mm256_movemask_epi8(PAIR_STEP_AVX2(i));
        if (mask) return i + (size_t)__builtin_ctz(mask);
    }
    if (i < starts) {
        // The last starts in one step that overlaps the previous one, their lanes shifted out.
        size_t last = starts - 32;
        uint32_t mask = (uint32_t)_mm256_movemask_epi8(PAIR_STEP_AVX2(last)) >> (i - last);
        return mask ? i + (size_t)__builtin_ctz(mask) : starts;
    }
    return starts;
}
#undef PAIR_STEP_AVX2

int trawl_has_avx2(void) {
    static int state = -1;
    if (state < 0) state = __builtin_cpu_supports("avx2") ? 1 : 0;
    return state;
}
#endif

size_t trawl_find_pair(const uint8_t *bytes, size_t starts,
                       size_t offset1, uint8_t fold1, uint8_t byte1,
                       size_t offset2, uint8_t fold2, uint8_t byte2) {
#ifdef TRAWL_HAVE_AVX2_DISPATCH
    if (starts >= 32 && trawl_has_avx2()) return find_pair_avx2(bytes, starts, offset1, fold1, byte1, offset2, fold2, byte2);
#endif
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i f1 = _mm_set1_epi8((char)fold1), t1 = _mm_set1_epi8((char)byte1);
    const __m128i f2 = _mm_set1_epi8((char)fold2), t2 = _mm_set1_epi8((char)byte2);
    for (; i + 32 <= starts; i += 32) {
        const uint8_t *a = bytes + i + offset1, *b = bytes + i + offset2;
        __m128i hitLow = _mm_and_si128(
            _mm_cmpeq_epi8(_mm_or_si128(_mm_loadu_si128((const __m128i *)a), f1), t1),
            _mm_cmpeq_epi8(_mm_or_si128(_mm_loadu_si128((const __m128i *)b), f2), t2));
        __m128i hitHigh = _mm_and_si128(
            _mm_cmpeq_epi8(_mm_or_si128(_mm_loadu_si128((const __m128i *)(a + 16)), f1), t1),
            _mm_cmpeq_epi8(_mm_or_si128(_mm_loadu_si128((const __m128i *)(b + 16)), f2), t2));
        unsigned mask = (unsigned)_mm_movemask_epi8(hitLow) | ((unsigned)_mm_movemask_epi8(hitHigh) << 16);
        if (mask) return i + (size_t)__builtin_ctz(mask);
    }
#endif
    for (; i < starts; i++) {
        if ((bytes[i + offset1] | fold1) == byte1 && (bytes[i + offset2] | fold2) == byte2) return i;
    }
    return starts;
}

size_t trawl_find_literal(const uint8_t *bytes, size_t starts, const trawl_literal *literal) {
    const size_t length = literal->length;
    const uint8_t *pattern = literal->pattern, *folds = literal->folds;
    size_t i = 0;
    while (i < starts) {
        size_t found = trawl_find_pair(bytes + i, starts - i, literal->offset1, literal->fold1, literal->byte1,
                                       literal->offset2, literal->fold2, literal->byte2);
        if (found == starts - i) return starts;
        i += found;
        // False candidates are rejected here, so the caller sees only occurrences.
        const uint8_t *candidate = bytes + i;
        size_t k = 0;
        if (literal->has_folds) {
            while (k < length && (candidate[k] | folds[k]) == pattern[k]) k++;
        } else {
            k = memcmp(candidate, pattern, length) == 0 ? length : 0;
        }
        if (k == length) return i;
        i++;
    }
    return starts;
}
