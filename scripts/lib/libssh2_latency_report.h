/*
 * The samples of libssh2_latency.c, reported: every sample to BENCH_LATENCY_FILE (ms, one a
 * line), a `bench-latency {json}` summary on stderr and the p50 as the last stdout line, with the
 * same nearest-rank percentiles as rws-bench. Static functions: include it in one translation unit,
 * after libssh2_common.h.
 */
#ifndef RWS_LIBSSH2_LATENCY_REPORT_H
#define RWS_LIBSSH2_LATENCY_REPORT_H

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(const double *sorted, int n, double f)
{
    int rank = (int)(f * n + 0.999999999);
    if(rank < 1)
        rank = 1;
    if(rank > n)
        rank = n;
    return sorted[rank - 1];
}

/* Sorts `ms` in place. */
static void report(double *ms, int n)
{
    const char *file = env("BENCH_LATENCY_FILE", NULL);
    double sum = 0;
    int i;
    if(file) {
        FILE *f = fopen(file, "w");
        if(!f)
            die("%s: %s", file, strerror(errno));
        for(i = 0; i < n; i++)
            fprintf(f, "%.4f\n", ms[i]);
        fclose(f);
    }
    for(i = 0; i < n; i++)
        sum += ms[i];
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    fprintf(stderr, "bench-latency {\"max\":%.4f,\"mean\":%.4f,\"n\":%d,\"p50\":%.4f,\"p99\":%.4f}\n",
            ms[n - 1], sum / n, n, percentile(ms, n, 0.5), percentile(ms, n, 0.99));
    printf("%.4f\n", percentile(ms, n, 0.5));
}

#endif
