/* sgemm throughput of the OpenBLAS this process loaded, at matrix sizes of ActionLab training.
 * Used by scripts/bench-blas, which runs it once per kernel (OPENBLAS_CORETYPE) and thread count.
 * Usage: bench-blas-sgemm THREADS; prints "kernel<TAB>shape<TAB>m<TAB>n<TAB>k<TAB>GFLOP/s" lines.
 * GFLOP/s = 2·m·n·k / seconds / 1e9, best of 5 timings of repeated calls lasting >= 0.2 s each. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

char *openblas_get_corename(void);
void openblas_set_num_threads(int);

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s THREADS\n", argv[0]); return 2; }
    openblas_set_num_threads(atoi(argv[1]));
    /* C[m,n] = W[m,k] · X[k,n]: a convolution as a matrix product (im2col), batch 32. */
    const struct { const char *name; int m, n, k; } shapes[] = {
        {"tcn 64<-54x7, 32x60 frames", 64, 1920, 378},
        {"stgcn 64<-64x9, 32x60x18", 64, 34560, 576},
        {"stgcn 128<-128x9, 32x30x18", 128, 17280, 1152},
        {"stgcn 256<-256x9, 32x15x18", 256, 8640, 2304},
        {"graph 18x18 adjacency, 32x64x60 rows", 122880, 18, 18},
        {"classifier 6<-256, batch 32", 32, 6, 256},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int m = shapes[s].m, n = shapes[s].n, k = shapes[s].k;
        float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n), *c = malloc(sizeof(float) * m * n);
        if (!a || !b || !c) { fprintf(stderr, "out of memory\n"); return 1; }
        for (long i = 0; i < (long)m * k; i++) a[i] = (float)(i % 13) / 13 - 0.5f;
        for (long i = 0; i < (long)k * n; i++) b[i] = (float)(i % 7) / 7 - 0.5f;
        double best = 0;
        for (int trial = 0; trial < 5; trial++) {
            long calls = 0;
            double start = seconds(), elapsed;
            do {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1, a, k, b, n, 0, c, n);
                calls++;
                elapsed = seconds() - start;
            } while (elapsed < 0.2);
            double rate = 2.0 * m * n * k * calls / elapsed / 1e9;
            if (rate > best) best = rate;
        }
        printf("%s\t%s\t%d\t%d\t%d\t%.1f\n", openblas_get_corename(), shapes[s].name, m, n, k, best);
        free(a); free(b); free(c);
    }
    return 0;
}
