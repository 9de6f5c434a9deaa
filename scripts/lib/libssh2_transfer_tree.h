/*
 * Folder trees copied each way over SFTP for libssh2_transfer.c, file by file with
 * libssh2_transfer_files.h, each folder given its permission bits and modification time after
 * its contents. Symbolic links stay links when getting; putting one calls libssh2_sftp_symlink,
 * which answered an error against OpenSSH here although the link was made, so the benchmark's
 * tree has none. Static functions: include it in one translation unit, after libssh2_transfer_files.h.
 */
#ifndef RWS_LIBSSH2_TRANSFER_TREE_H
#define RWS_LIBSSH2_TRANSFER_TREE_H

#include <dirent.h>

/* `self`: the remote folder's attributes when the caller has them (from its parent's listing). */
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

#endif
