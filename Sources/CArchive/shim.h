#ifndef FLOWPKG_CARCHIVE_SHIM_H
#define FLOWPKG_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>

// The AE_IF* file types are macros with casts, which Swift does not import.
static inline unsigned int flowarchive_regular(void) { return AE_IFREG; }
static inline unsigned int flowarchive_directory(void) { return AE_IFDIR; }
static inline unsigned int flowarchive_symlink(void) { return AE_IFLNK; }

#endif
