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
 *
 * Reporting is in libssh2_latency_report.h, shell_echo in libssh2_latency_shell.h, both included
 * here (one translation unit).
 */
#define _GNU_SOURCE
#include <libssh2.h>
#include <libssh2_sftp.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libssh2_common.h"
#include "libssh2_latency_report.h"
#include "libssh2_latency_shell.h"

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
    else
        shell_echo(s, ms, n, warm);
    report(ms, n);
    libssh2_session_disconnect(s, "bye");
    libssh2_session_free(s);
    libssh2_exit();
    return 0;
}
