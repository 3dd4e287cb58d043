#ifndef FLOWPKG_CZLIB_SHIM_H
#define FLOWPKG_CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 is a macro, which Swift does not import.
static inline int flowzlib_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}

#endif
