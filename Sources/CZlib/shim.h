#ifndef FLOWPKG_CZLIB_SHIM_H
#define FLOWPKG_CZLIB_SHIM_H
#include <zlib.h>

// deflateInit2 is a macro that passes zlib's version and struct size, which Swift cannot call.
// Raw deflate (negative window bits): zip stores the stream without zlib's header and trailer.
static inline int flowzlib_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}

#endif
