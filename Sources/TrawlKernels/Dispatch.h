// Run-time choice of wider SIMD kernels (internal to TrawlKernels): the binary is built for the
// SSE2 baseline and still runs on CPUs without AVX2.
#ifndef TRAWL_KERNELS_DISPATCH_H
#define TRAWL_KERNELS_DISPATCH_H

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define TRAWL_HAVE_AVX2_DISPATCH 1
/// Whether the CPU has AVX2 (asked once).
int trawl_has_avx2(void);
#endif

#endif
