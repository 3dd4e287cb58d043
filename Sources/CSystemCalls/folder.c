// --- a folder's names with one system call a block: getdents64 on Linux ---
#define _GNU_SOURCE
#include "csystemcalls.h"
#include <errno.h>
#include <string.h>
#ifdef __linux__
#include <dirent.h>
#include <unistd.h>
#endif

ssize_t csystem_folder_names(int folder, char *buffer, size_t length) {
#ifdef __linux__
    ssize_t got = getdents64(folder, buffer, length);
    if (got <= 0) return got;
    // Each name moves to the front, over records already read: a record is its name, its NUL
    // and a header of 19 bytes, so the names written never reach a record not yet read.
    size_t names = 0;
    for (ssize_t at = 0; at < got;) {
        const struct dirent64 *record = (const struct dirent64 *)(buffer + at);
        size_t record_length = record->d_reclen;
        size_t name_length = strlen(record->d_name);
        memmove(buffer + names, record->d_name, name_length + 1);
        names += name_length + 1;
        at += (ssize_t)record_length;
    }
    return (ssize_t)names;
#else
    (void)folder, (void)buffer, (void)length;
    errno = ENOSYS;
    return -1;
#endif
}
