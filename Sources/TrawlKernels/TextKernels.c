#include "TrawlKernels.h"
#include <string.h>

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

size_t trawl_utf8_validate(const uint8_t *bytes, size_t count) {
    size_t i = 0;
    const v16u8 high = (v16u8){0} + 0x80;
    while (i < count) {
        // ASCII fast path, 64 then 16 bytes at a time.
        while (count - i >= 64) {
            v16u8 any = load16(bytes + i) | load16(bytes + i + 16) | load16(bytes + i + 32) | load16(bytes + i + 48);
            v16u8 hi = any & high;
            uint64_t lo64, hi64;
            memcpy(&lo64, &hi, 8);
            memcpy(&hi64, (uint8_t *)&hi + 8, 8);
            if (lo64 | hi64) break;
            i += 64;
        }
        while (count - i >= 16) {
            v16u8 hi = load16(bytes + i) & high;
            uint64_t lo64, hi64;
            memcpy(&lo64, &hi, 8);
            memcpy(&hi64, (uint8_t *)&hi + 8, 8);
            if (lo64 | hi64) break;
            i += 16;
        }
        if (i >= count) break;
        uint8_t b = bytes[i];
        if (b < 0x80) { i++; continue; }
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
