/* The in-process start-up benchmark's bare C host (Benchmarks/host_launch.sh compiles it):
 * `host_launch ROUNDS PACKAGE.luapkg` reads the zip's central directory, finds
 * modules/main.lua, inflates it with zlib, and runs it in a new liblua5.4 state, ROUNDS times
 * in this process, each timed from opening the file to the module's first printed line;
 * prints the median and the best, in microseconds. No manifest, no digest, no sandbox: the
 * least a host does to run that entry. */
#include <fcntl.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

static uint64_t first_line;

static uint64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int print_line(lua_State *L) {
    (void)L;
    if (!first_line) first_line = now();
    return 0;
}

static uint32_t u32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t u16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* The entry `name` of the zip at `path`, inflated; NULL on any problem. */
static unsigned char *read_entry(const char *path, const char *name, size_t *size) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    off_t end = lseek(fd, 0, SEEK_END);
    unsigned char tail[65557];
    size_t tail_size = end < (off_t)sizeof tail ? (size_t)end : sizeof tail;
    if (pread(fd, tail, tail_size, end - (off_t)tail_size) != (ssize_t)tail_size) goto fail;
    ssize_t eocd = -1;
    for (ssize_t i = (ssize_t)tail_size - 22; i >= 0; i--)
        if (u32(tail + i) == 0x06054b50) { eocd = i; break; }
    if (eocd < 0) goto fail;
    uint32_t cd_size = u32(tail + eocd + 12), cd_offset = u32(tail + eocd + 16);
    unsigned char *cd = malloc(cd_size);
    if (!cd || pread(fd, cd, cd_size, cd_offset) != (ssize_t)cd_size) { free(cd); goto fail; }
    size_t name_length = strlen(name);
    for (uint32_t at = 0; at + 46 <= cd_size && u32(cd + at) == 0x02014b50;) {
        uint16_t n = u16(cd + at + 28), e = u16(cd + at + 30), c = u16(cd + at + 32);
        if (n == name_length && memcmp(cd + at + 46, name, n) == 0) {
            uint16_t method = u16(cd + at + 10);
            uint32_t packed = u32(cd + at + 20), full = u32(cd + at + 24), local = u32(cd + at + 42);
            free(cd);
            unsigned char header[30];
            if (pread(fd, header, 30, local) != 30 || u32(header) != 0x04034b50) goto fail;
            off_t data = local + 30 + u16(header + 26) + u16(header + 28);
            unsigned char *in = malloc(packed ? packed : 1), *out = malloc(full ? full : 1);
            if (!in || !out || pread(fd, in, packed, data) != (ssize_t)packed) { free(in); free(out); goto fail; }
            if (method == 0) {
                memcpy(out, in, full);
            } else {
                z_stream z = {0};
                z.next_in = in, z.avail_in = packed, z.next_out = out, z.avail_out = full;
                if (inflateInit2(&z, -15) != Z_OK || inflate(&z, Z_FINISH) != Z_STREAM_END) {
                    inflateEnd(&z), free(in), free(out);
                    goto fail;
                }
                inflateEnd(&z);
            }
            free(in);
            close(fd);
            *size = full;
            return out;
        }
        at += 46 + n + e + c;
    }
    free(cd);
fail:
    close(fd);
    return NULL;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: host_launch ROUNDS PACKAGE.luapkg\n"); return 64; }
    int rounds = atoi(argv[1]);
    if (rounds <= 0) return 64;
    double *samples = malloc(sizeof(double) * (size_t)rounds);
    /* Where the time went: reading the entry, making the state, loading and running it. */
    double *phases[3];
    for (int i = 0; i < 3; i++) phases[i] = malloc(sizeof(double) * (size_t)rounds);
    for (int round = 0; round < rounds; round++) {
        first_line = 0;
        uint64_t start = now();
        size_t size = 0;
        unsigned char *code = read_entry(argv[2], "modules/main.lua", &size);
        if (!code) { fprintf(stderr, "host_launch: no modules/main.lua in %s\n", argv[2]); return 1; }
        uint64_t read = now();
        lua_State *L = luaL_newstate();
        luaL_openlibs(L);
        lua_register(L, "print", print_line);
        uint64_t ready = now();
        phases[0][round] = (double)(read - start) / 1000;
        phases[1][round] = (double)(ready - read) / 1000;
        if (luaL_loadbuffer(L, (const char *)code, size, "main.lua") != LUA_OK || lua_pcall(L, 0, 0, 0) != LUA_OK) {
            fprintf(stderr, "host_launch: %s\n", lua_tostring(L, -1));
            return 1;
        }
        if (!first_line) { fprintf(stderr, "host_launch: the module printed nothing\n"); return 1; }
        samples[round] = (double)(first_line - start) / 1000;
        phases[2][round] = (double)(first_line - ready) / 1000;
        lua_close(L);
        free(code);
    }
    qsort(samples, (size_t)rounds, sizeof(double), compare);
    for (int i = 0; i < 3; i++) qsort(phases[i], (size_t)rounds, sizeof(double), compare);
    printf("median %g best %g open %g context %g module %g\n", samples[rounds / 2], samples[0],
           phases[0][rounds / 2], phases[1][rounds / 2], phases[2][rounds / 2]);
    return 0;
}
