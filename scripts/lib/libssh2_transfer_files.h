/*
 * One file copied each way over SFTP for libssh2_transfer.c, with its permission bits and
 * modification time (as `scp -p`), as rws gives them.
 *
 * Reads are ../shared/bench/clients/libssh2_bench.c's sftp_read loop: blocking libssh2_sftp_read
 * with a 2 MiB buffer, which libssh2 1.10 turns into 8 MiB of read-ahead (smaller for a smaller
 * file, whose size is known). Writes pass 2 MiB buffers to libssh2_sftp_write, which sends them
 * as pipelined 30,000-byte requests. Static functions and the one session, SFTP handle and buffer
 * (set up by main): include it in one translation unit, after libssh2_common.h.
 */
#ifndef RWS_LIBSSH2_TRANSFER_FILES_H
#define RWS_LIBSSH2_TRANSFER_FILES_H

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>

#define BUFSZ (2 << 20)

static LIBSSH2_SESSION *S;
static LIBSSH2_SFTP *F;
static char *BUF;

/* `known`: the remote file's attributes when the caller has them (from a directory listing). */
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

#endif
