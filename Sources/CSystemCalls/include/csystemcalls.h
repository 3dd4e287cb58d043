#ifndef FLOWPKG_CSYSTEMCALLS_H
#define FLOWPKG_CSYSTEMCALLS_H
// System calls Swift's Glibc leaves out, and why each is needed, one line each (the bodies are
// in the .c files beside this folder; no state lives here).
#include <stddef.h>
#include <sys/types.h>

/// Why C: glibc's getdents64 is a GNU extension Swift's Glibc leaves out; with it a launch lists
/// its app folder, open already, without opendir's fstat and 32 KiB buffer (Benchmarks/README.md,
/// host_launch). Reads the folder's next entries into `buffer` (aligned to 8 bytes) and leaves
/// their names there, each ended by a NUL, "." and ".." included; returns the bytes of names, 0
/// when the folder is listed, -1 with errno set on an error (ENOSYS where there is no getdents64).
ssize_t csystem_folder_names(int folder, char *buffer, size_t length);

#endif
