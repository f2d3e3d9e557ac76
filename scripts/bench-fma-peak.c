// The single-core ceiling of float32 arithmetic on an AVX2+FMA machine: 12 independent chains of
// 8-wide fused multiply-adds (enough to cover the FMA latency on two ports), nothing read from
// memory. Prints GFLOP/s (2 FLOP per lane per FMA). For BENCHMARKS.md's reading of training
// speed against the machine; not a test.
//
//   cc -O2 -mavx2 -mfma scripts/bench-fma-peak.c -o /tmp/fma-peak && taskset -c 0 /tmp/fma-peak
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

#define DECLARE(i) __m256 a##i = _mm256_set1_ps((float)(i));
#define STEP(i) a##i = _mm256_fmadd_ps(a##i, b, c);

int main(void) {
    const __m256 b = _mm256_set1_ps(1.0000001f), c = _mm256_set1_ps(0.9999999f);
    DECLARE(0) DECLARE(1) DECLARE(2) DECLARE(3) DECLARE(4) DECLARE(5)
    DECLARE(6) DECLARE(7) DECLARE(8) DECLARE(9) DECLARE(10) DECLARE(11)
    const long iterations = 200000000L;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long n = 0; n < iterations; n++) {
        STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7) STEP(8) STEP(9) STEP(10) STEP(11)
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - start.tv_sec) + 1e-9 * (end.tv_nsec - start.tv_nsec);
    __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                               _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
    sum = _mm256_add_ps(sum, _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11)));
    float lanes[8];
    _mm256_storeu_ps(lanes, sum);
    printf("%.1f GFLOP/s (%.3f s; %g)\n", iterations * 12.0 * 16 / seconds / 1e9, seconds, lanes[0]);
    return 0;
}
