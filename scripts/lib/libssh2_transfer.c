/*
 * File and tree copies with plain libssh2 over SFTP: the C reference for
 * `scripts/bench transfer` (rws get / rws put).
 *
 * DERIVED FROM ../shared/bench/clients/libssh2_bench.c (libssh2_common.h): the same
 * connection set-up (TCP_NODELAY, host key check against BENCH_KNOWN_HOSTS, public key
 * authentication) and its sftp_read loop (blocking libssh2_sftp_read with a 2 MiB buffer, which
 * libssh2 1.10 turns into 8 MiB of read-ahead; smaller for a smaller file, whose size is known). Writes pass 2 MiB buffers to libssh2_sftp_write,
 * which sends them as pipelined 30,000-byte requests. Each copied file gets its permission bits
 * and modification time (as `scp -p`), as rws gives them; trees keep symbolic links as links
 * when getting (libssh2_sftp_symlink answered an error against OpenSSH here although the link was
 * made, so the benchmark's tree has none).
 *
 * Build: cc -O2 -o libssh2_transfer libssh2_transfer.c $(pkg-config --cflags --libs libssh2)
 * Usage: libssh2_transfer get REMOTE LOCAL | put LOCAL REMOTE | get-tree REMOTE LOCAL | put-tree LOCAL REMOTE
 *   env BENCH_HOST (IPv4), BENCH_PORT, BENCH_USER, BENCH_KEY, BENCH_KEY_PUB, BENCH_KNOWN_HOSTS.
 * Prints the seconds the copy took (after the connection is set up) on stdout.
 */
#define _GNU_SOURCE
#include <libssh2.h>
#include <libssh2_sftp.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define BUFSZ (2 << 20)

#include "libssh2_common.h"

static LIBSSH2_SESSION *S;
static LIBSSH2_SFTP *F;
static char *BUF;

static void get_file(const char *remote, const char *local, const LIBSSH2_SFTP_ATTRIBUTES *known)
{
    LIBSSH2_SFTP_ATTRIBUTES a;
    LIBSSH2_SFTP_HANDLE *h = libssh2_sftp_open(F, remote, LIBSSH2_FXF_READ, 0);
    ssize_t n;
    size_t want;
    int fd;
    if(!h)
        die_ssh(S, remote);
    if(known)
        a = *known;
    else if(libssh2_sftp_fstat(h, &a))
        die_ssh(S, "fstat");
    fd = open(local, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if(fd < 0)
        die("open %s: %s", local, strerror(errno));
    /* A buffer no bigger than the file: libssh2 reads ahead four times the buffer, which for a
       small file would be hundreds of requests past its end. */
    want = (a.flags & LIBSSH2_SFTP_ATTR_SIZE) && a.filesize + 1 < BUFSZ ? (size_t)a.filesize + 1 : BUFSZ;
    while((n = libssh2_sftp_read(h, BUF, want)) > 0)
        if(write(fd, BUF, (size_t)n) != n)
            die("write %s: %s", local, strerror(errno));
    if(n < 0)
        die_ssh(S, "sftp_read");
    libssh2_sftp_close(h);
    {
        struct timeval times[2] = {{(time_t)a.atime, 0}, {(time_t)a.mtime, 0}};
        fchmod(fd, a.permissions & 07777);
        futimes(fd, times);
    }
    close(fd);
}

static void put_file(const char *local, const char *remote)
{
    struct stat st;
    LIBSSH2_SFTP_ATTRIBUTES a;
    LIBSSH2_SFTP_HANDLE *h;
    ssize_t n;
    int fd = open(local, O_RDONLY);
    if(fd < 0 || fstat(fd, &st))
        die("open %s: %s", local, strerror(errno));
    h = libssh2_sftp_open(F, remote, LIBSSH2_FXF_WRITE | LIBSSH2_FXF_CREAT | LIBSSH2_FXF_TRUNC, 0600);
    if(!h)
        die_ssh(S, remote);
    while((n = read(fd, BUF, BUFSZ)) > 0) {
        ssize_t off = 0;
        while(off < n) {
            ssize_t w = libssh2_sftp_write(h, BUF + off, (size_t)(n - off));
            if(w < 0)
                die_ssh(S, "sftp_write");
            off += w;
        }
    }
    close(fd);
    memset(&a, 0, sizeof a);
    a.flags = LIBSSH2_SFTP_ATTR_PERMISSIONS | LIBSSH2_SFTP_ATTR_ACMODTIME;
    a.permissions = st.st_mode & 07777;
    a.atime = (unsigned long)st.st_atime;
    a.mtime = (unsigned long)st.st_mtime;
    if(libssh2_sftp_fsetstat(h, &a))
        die_ssh(S, "fsetstat");
    libssh2_sftp_close(h);
}

static void get_tree(const char *remote, const char *local, const LIBSSH2_SFTP_ATTRIBUTES *self)
{
    LIBSSH2_SFTP_HANDLE *d;
    LIBSSH2_SFTP_ATTRIBUTES a;
    char name[1024], *from, *to;
    int n;
    if(mkdir(local, 0700) && errno != EEXIST)
        die("mkdir %s: %s", local, strerror(errno));
    d = libssh2_sftp_opendir(F, remote);
    if(!d)
        die_ssh(S, remote);
    while((n = libssh2_sftp_readdir(d, name, sizeof name, &a)) > 0) {
        if(!strcmp(name, ".") || !strcmp(name, ".."))
            continue;
        if(asprintf(&from, "%s/%s", remote, name) < 0 || asprintf(&to, "%s/%s", local, name) < 0)
            die("oom");
        if(LIBSSH2_SFTP_S_ISDIR(a.permissions))
            get_tree(from, to, &a);
        else if(LIBSSH2_SFTP_S_ISLNK(a.permissions)) {
            char target[4096];
            int len = libssh2_sftp_readlink(F, from, target, sizeof target - 1);
            if(len < 0)
                die_ssh(S, "readlink");
            target[len] = 0;
            if(symlink(target, to))
                die("symlink %s: %s", to, strerror(errno));
        } else if(LIBSSH2_SFTP_S_ISREG(a.permissions))
            get_file(from, to, &a);
        free(from);
        free(to);
    }
    if(n < 0)
        die_ssh(S, "readdir");
    libssh2_sftp_closedir(d);
    if(self) {
        struct timeval times[2] = {{(time_t)self->atime, 0}, {(time_t)self->mtime, 0}};
        chmod(local, self->permissions & 07777);
        utimes(local, times);
    }
}

static void put_tree(const char *local, const char *remote)
{
    DIR *d = opendir(local);
    struct dirent *e;
    struct stat st;
    char *from, *to;
    if(!d)
        die("opendir %s: %s", local, strerror(errno));
    if(libssh2_sftp_mkdir(F, remote, 0700))
        die_ssh(S, remote);
    while((e = readdir(d))) {
        if(!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if(asprintf(&from, "%s/%s", local, e->d_name) < 0 || asprintf(&to, "%s/%s", remote, e->d_name) < 0)
            die("oom");
        if(lstat(from, &st))
            die("lstat %s: %s", from, strerror(errno));
        if(S_ISDIR(st.st_mode))
            put_tree(from, to);
        else if(S_ISLNK(st.st_mode)) {
            char target[4096];
            ssize_t len = readlink(from, target, sizeof target - 1);
            if(len < 0)
                die("readlink %s", from);
            target[len] = 0;
            if(libssh2_sftp_symlink(F, target, to) < 0)
                die("symlink %s -> %s: SFTP status %lu", to, target, libssh2_sftp_last_error(F));
        } else if(S_ISREG(st.st_mode))
            put_file(from, to);
        free(from);
        free(to);
    }
    closedir(d);
    if(stat(local, &st) == 0) {
        LIBSSH2_SFTP_ATTRIBUTES a;
        memset(&a, 0, sizeof a);
        a.flags = LIBSSH2_SFTP_ATTR_PERMISSIONS | LIBSSH2_SFTP_ATTR_ACMODTIME;
        a.permissions = st.st_mode & 07777;
        a.atime = (unsigned long)st.st_atime;
        a.mtime = (unsigned long)st.st_mtime;
        if(libssh2_sftp_setstat(F, remote, &a))
            die_ssh(S, "setstat");
    }
}

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
