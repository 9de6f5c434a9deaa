/*
 * Per-operation latencies with plain libssh2: the C reference for rws-bench's latency
 * benchmarks (exec_latency, shell_echo, sftp_stat).
 *
 * DERIVED FROM ../shared/bench/clients/libssh2_bench.c: the connection set-up (TCP_NODELAY,
 * algorithm pinning from BENCH_KEX/..., host key check against BENCH_KNOWN_HOSTS, public key
 * authentication) and the exec path (blocking open_session, exec, read to EOF, close,
 * wait_closed, exit status, free) are the same libssh2 calls as its exec_seq; the difference is
 * that every operation is timed on its own instead of only the total.
 *
 * Build: cc -O2 -o libssh2_latency libssh2_latency.c $(pkg-config --cflags --libs libssh2)
 * Usage: libssh2_latency exec_latency|shell_echo|sftp_stat     (env: as rws-bench)
 *   BENCH_LAT_N operations (2000) after BENCH_LAT_WARMUP untimed ones (10);
 *   BENCH_LATENCY_FILE: write every sample (ms, one per line) there;
 *   BENCH_STAT_PATH: path for sftp_stat (/etc/passwd).
 * Prints the p50 in ms as the last stdout line and `bench-latency {json}` on stderr.
 */
#define _GNU_SOURCE
#include <libssh2.h>
#include <libssh2_sftp.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "libssh2_common.h"

/* As exec_blocking() of libssh2_bench.c, output only counted. */
static void exec_true(LIBSSH2_SESSION *s)
{
    char buf[4096];
    LIBSSH2_CHANNEL *ch = libssh2_channel_open_session(s);
    ssize_t n;
    int st;
    if(!ch)
        die_ssh(s, "channel_open_session");
    libssh2_channel_handle_extended_data2(ch, LIBSSH2_CHANNEL_EXTENDED_DATA_IGNORE);
    if(libssh2_channel_exec(ch, "true"))
        die_ssh(s, "channel_exec");
    while((n = libssh2_channel_read(ch, buf, sizeof buf)) > 0)
        ;
    if(n < 0)
        die_ssh(s, "channel_read");
    if(libssh2_channel_close(ch) || libssh2_channel_wait_closed(ch))
        die_ssh(s, "channel_close");
    st = libssh2_channel_get_exit_status(ch);
    libssh2_channel_free(ch);
    if(st != 0)
        die("true exited %d", st);
}

/* Reads the shell's output until `pattern` has arrived (blocking). */
static char g_term[65536];
static size_t g_termlen;

static void wait_for(LIBSSH2_SESSION *s, LIBSSH2_CHANNEL *ch, const char *pattern, size_t plen)
{
    for(;;) {
        ssize_t n;
        char *hit = memmem(g_term, g_termlen, pattern, plen);
        if(hit) {
            size_t end = (size_t)(hit - g_term) + plen;
            memmove(g_term, g_term + end, g_termlen - end);
            g_termlen -= end;
            return;
        }
        if(g_termlen == sizeof g_term)
            g_termlen = 0;
        n = libssh2_channel_read(ch, g_term + g_termlen, sizeof g_term - g_termlen);
        if(n <= 0)
            die_ssh(s, "shell read (or the shell ended)");
        g_termlen += (size_t)n;
    }
}

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

int main(int argc, char **argv)
{
    const char *bench = argc == 2 ? argv[1] : "";
    int n = atoi(env("BENCH_LAT_N", "2000")), warm = atoi(env("BENCH_LAT_WARMUP", "10")), i;
    double *ms, t0;
    LIBSSH2_SESSION *s;
    connection_from_environment("2299");
    if(strcmp(bench, "exec_latency") && strcmp(bench, "shell_echo") && strcmp(bench, "sftp_stat")) {
        fprintf(stderr, "usage: libssh2_latency exec_latency|shell_echo|sftp_stat\n");
        return 3;
    }
    if(n < 1 || !(ms = malloc(sizeof *ms * (size_t)n)))
        die("BENCH_LAT_N must be positive");
    if(libssh2_init(0))
        die("libssh2_init");
    s = connect_session();
    if(!strcmp(bench, "exec_latency")) {
        for(i = 0; i < warm; i++)
            exec_true(s);
        for(i = 0; i < n; i++) {
            t0 = now_ms();
            exec_true(s);
            ms[i] = now_ms() - t0;
        }
    }
    else if(!strcmp(bench, "sftp_stat")) {
        const char *path = env("BENCH_STAT_PATH", "/etc/passwd");
        LIBSSH2_SFTP_ATTRIBUTES attrs;
        LIBSSH2_SFTP *sftp = libssh2_sftp_init(s);
        if(!sftp)
            die_ssh(s, "sftp_init");
        for(i = 0; i < warm + n; i++) {
            t0 = now_ms();
            if(libssh2_sftp_stat_ex(sftp, path, (unsigned)strlen(path), LIBSSH2_SFTP_LSTAT, &attrs))
                die_ssh(s, "sftp_stat");
            if(i >= warm)
                ms[i - warm] = now_ms() - t0;
            if(attrs.filesize == 0)
                die("%s: size 0", path);
        }
        libssh2_sftp_shutdown(sftp);
    }
    else {
        /* The same as rws-bench shell_echo: PTY + login shell, prompt "> ", then `a` and DEL. */
        static const char setup[] = "PS1='> '; echo RWS''READY\r";
        LIBSSH2_CHANNEL *ch = libssh2_channel_open_session(s);
        if(!ch)
            die_ssh(s, "channel_open_session");
        if(libssh2_channel_request_pty_ex(ch, "xterm-256color", 14, NULL, 0, 80, 24, 0, 0))
            die_ssh(s, "request_pty");
        if(libssh2_channel_exec(ch, "exec \"${SHELL:-/bin/sh}\" -l"))
            die_ssh(s, "exec shell");
        if(libssh2_channel_write(ch, setup, sizeof setup - 1) != (ssize_t)(sizeof setup - 1))
            die_ssh(s, "shell write");
        wait_for(s, ch, "RWSREADY", 8);
        wait_for(s, ch, "> ", 2);
        for(i = 0; i < warm + n; i++) {
            int letter = i % 2 == 0;
            char key = letter ? 'a' : 0x7f, echo = letter ? 'a' : 0x08;
            t0 = now_ms();
            if(libssh2_channel_write(ch, &key, 1) != 1)
                die_ssh(s, "shell write");
            wait_for(s, ch, &echo, 1);
            if(i >= warm)
                ms[i - warm] = now_ms() - t0;
        }
        libssh2_channel_close(ch);
        libssh2_channel_free(ch);
    }
    report(ms, n);
    libssh2_session_disconnect(s, "bye");
    libssh2_session_free(s);
    libssh2_exit();
    return 0;
}
