#ifndef RWS_CZLIB_SHIM_H
#define RWS_CZLIB_SHIM_H

#include <zlib.h>

/* inflateInit2 is a function-like macro, not imported into Swift. windowBits 31 = gzip only. */
static inline int rws_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
