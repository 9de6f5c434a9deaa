/*
 * File and tree copies with plain libssh2 over SFTP: the C reference for
 * `scripts/bench transfer` (rws get / rws put).
 *
 * DERIVED FROM ../shared/bench/clients/libssh2_bench.c: the same connection set-up
 * (libssh2_common.h: TCP_NODELAY, host key check against BENCH_KNOWN_HOSTS, public key
 * authentication) and its sftp_read loop. The copies: one file in libssh2_transfer_files.h,
 * folder trees in libssh2_transfer_tree.h, both included here (one translation unit).
 *
 * Build: cc -O2 -o libssh2_transfer libssh2_transfer.c $(pkg-config --cflags --libs libssh2)
 * Usage: libssh2_transfer get REMOTE LOCAL | put LOCAL REMOTE | get-tree REMOTE LOCAL | put-tree LOCAL REMOTE
 *   env BENCH_HOST (IPv4), BENCH_PORT, BENCH_USER, BENCH_KEY, BENCH_KEY_PUB, BENCH_KNOWN_HOSTS.
 * Prints the seconds the copy took (after the connection is set up) on stdout.
 */
#define _GNU_SOURCE
#include <libssh2.h>
#include <libssh2_sftp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libssh2_common.h"
#include "libssh2_transfer_files.h"
#include "libssh2_transfer_tree.h"

int main(int argc, char **argv)
{
    double t0;
    if(argc != 4)
        die("usage: %s get|put|get-tree|put-tree FROM TO", argv[0]);
    connection_from_environment("22");
    BUF = malloc(BUFSZ);
    if(!BUF || libssh2_init(0))
        die("init");
    S = connect_session();
    t0 = now_ms();
    F = libssh2_sftp_init(S);
    if(!F)
        die_ssh(S, "sftp_init");
    if(!strcmp(argv[1], "get"))
        get_file(argv[2], argv[3], NULL);
    else if(!strcmp(argv[1], "put"))
        put_file(argv[2], argv[3]);
    else if(!strcmp(argv[1], "get-tree"))
        get_tree(argv[2], argv[3], NULL);
    else if(!strcmp(argv[1], "put-tree"))
        put_tree(argv[2], argv[3]);
    else
        die("unknown mode %s", argv[1]);
    libssh2_sftp_shutdown(F);
    printf("%.6f\n", (now_ms() - t0) / 1e3);
    libssh2_session_disconnect(S, "done");
    libssh2_session_free(S);
    return 0;
}
