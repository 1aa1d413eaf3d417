#define _GNU_SOURCE
#include "TrawlKernels.h"
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
