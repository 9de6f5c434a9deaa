#ifndef RWS_CLIBSSH2_SHIM_H
#define RWS_CLIBSSH2_SHIM_H

#include <libssh2.h>
#include <libssh2_sftp.h>
#include <libssh2_publickey.h>

/* Function-like macros are not imported into Swift: expose what we need. */
static inline int rws_libssh2_version_at_least(int major, int minor) {
    return LIBSSH2_VERSION_NUM >= ((major << 16) | (minor << 8));
}

#endif
