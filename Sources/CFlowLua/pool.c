// --- a context's state: small blocks from a pool of its own ---
//
// Most of what a Lua state allocates is small (strings, tables, closures, upvalues) and a
// context makes, grows and closes whole states: from the C library's malloc every block costs a
// search of its bins, and closing a state hands hundreds of them back one by one, which the
// next large allocation then consolidates (Benchmarks/README.md, host_launch). Blocks up to 512
// bytes come from the state's own pool instead: 16 KiB chunks cut in 16-byte size classes,
// each freed block kept on its class's list for the next block of that size, every chunk given
// back when the state closes. Larger blocks go to malloc as before. What a program frees stays
// with its state until the state closes (as Lua's own string table and stacks do).

#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include "cflowlua.h"

#define FLOWLUA_POOL_CHUNK 16384

struct flowlua_pool_chunk {
    struct flowlua_pool_chunk *next;
    void *padding; /* keeps the blocks after the header 16-byte aligned */
};
typedef struct flowlua_pool_chunk flowlua_pool_chunk;


/// The size class of a block of `size` bytes (1-based), or 0 when malloc serves it.
static size_t flowlua_pool_class(size_t size) {
    size_t class = (size + 15) / 16;
    return class <= FLOWLUA_POOL_CLASSES ? class : 0;
}

static void *flowlua_pool_take(flowlua_pool *pool, size_t class) {
    void *block = pool->free[class - 1];
    if (block != NULL) {
        pool->free[class - 1] = *(void **)block;
        return block;
    }
    size_t bytes = class * 16;
    if (pool->cursor == NULL || (size_t)(pool->end - pool->cursor) < bytes) {
        flowlua_pool_chunk *chunk = malloc(FLOWLUA_POOL_CHUNK);
        if (chunk == NULL) return NULL;
        chunk->next = pool->chunks;
        pool->chunks = chunk;
        pool->cursor = (char *)(chunk + 1);
        pool->end = (char *)chunk + FLOWLUA_POOL_CHUNK;
    }
    block = pool->cursor;
    pool->cursor += bytes;
    return block;
}

static void flowlua_pool_give(flowlua_pool *pool, void *block, size_t class) {
    *(void **)block = pool->free[class - 1];
    pool->free[class - 1] = block;
}

/// lua_Alloc over a flowlua_pool (Lua passes a block's size whenever it frees or resizes it,
/// so the class is known without a header). A shrink never fails, as Lua requires: when no
/// smaller block can be had the block stays where it is, and its rest goes unused.
static void *flowlua_pool_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    flowlua_pool *pool = ud;
    size_t oldClass = ptr != NULL ? flowlua_pool_class(osize) : 0;
    size_t newClass = flowlua_pool_class(nsize);
    if (nsize == 0) {
        if (ptr != NULL) {
            if (oldClass) flowlua_pool_give(pool, ptr, oldClass);
            else free(ptr);
        }
        return NULL;
    }
    if (ptr == NULL) return newClass ? flowlua_pool_take(pool, newClass) : malloc(nsize);
    if (oldClass && oldClass == newClass) return ptr;
    if (!oldClass && !newClass) return realloc(ptr, nsize);
    void *block = newClass ? flowlua_pool_take(pool, newClass) : malloc(nsize);
    if (block == NULL) return nsize <= osize ? ptr : NULL;
    memcpy(block, ptr, osize < nsize ? osize : nsize);
    if (oldClass) flowlua_pool_give(pool, ptr, oldClass);
    else free(ptr);
    return block;
}

/// Gives back every chunk (after lua_close).
void flowlua_pool_release(flowlua_pool *pool) {
    while (pool->chunks != NULL) {
        flowlua_pool_chunk *chunk = pool->chunks;
        pool->chunks = chunk->next;
        free(chunk);
    }
    memset(pool, 0, sizeof *pool);
}

// What luaL_newstate sets besides the allocator, as lauxlib.c does it: the panic function and
// the warning function (off until `warn("@on")`).

static void flowlua_pool_warn_off(void *ud, const char *message, int tocont);
static void flowlua_pool_warn_on(void *ud, const char *message, int tocont);

static int flowlua_pool_warn_control(lua_State *L, const char *message, int tocont) {
    if (tocont || *(message++) != '@') return 0;
    if (strcmp(message, "off") == 0) lua_setwarnf(L, flowlua_pool_warn_off, L);
    else if (strcmp(message, "on") == 0) lua_setwarnf(L, flowlua_pool_warn_on, L);
    return 1;
}

static void flowlua_pool_warn_off(void *ud, const char *message, int tocont) {
    flowlua_pool_warn_control((lua_State *)ud, message, tocont);
}

static void flowlua_pool_warn_continued(void *ud, const char *message, int tocont) {
    lua_State *L = (lua_State *)ud;
    lua_writestringerror("%s", message);
    if (tocont) {
        lua_setwarnf(L, flowlua_pool_warn_continued, L);
    } else {
        lua_writestringerror("%s", "\n");
        lua_setwarnf(L, flowlua_pool_warn_on, L);
    }
}

static void flowlua_pool_warn_on(void *ud, const char *message, int tocont) {
    if (flowlua_pool_warn_control((lua_State *)ud, message, tocont)) return;
    lua_writestringerror("%s", "Lua warning: ");
    flowlua_pool_warn_continued(ud, message, tocont);
}

static int flowlua_pool_panic(lua_State *L) {
    const char *message = lua_tostring(L, -1);
    if (message == NULL) message = "error object is not a string";
    lua_writestringerror("PANIC: unprotected error in call to Lua API (%s)\n", message);
    return 0;
}

/// luaL_openlibs with the collector stopped, then restarted with its first cycle due once the
/// state has grown by what it holds (as a cycle leaves it, at the default pause of 200%).
///
/// Everything the libraries make stays reachable, so collecting meanwhile frees nothing: as
/// they grew, the collector ran a cycle at every doubling of a few KiB, about a tenth of
/// luaL_openlibs' instructions, and where the last one fell decided when the next came. With
/// the global table made at full size it came within a program's first lines, whose
/// finalizers then ran before its end, where lua5.4 runs them at lua_close
/// (InterruptedRunTests). `lua_gc(L, LUA_GCSTEP, n)` with n < 0 sets the debt to -n KiB
/// and runs no step (lapi.c): the next cycle starts after that much is allocated.
void flowlua_pooled_openlibs(lua_State *L) {
    lua_gc(L, LUA_GCSTOP);
    luaL_openlibs(L);
    lua_gc(L, LUA_GCRESTART);
    lua_gc(L, LUA_GCSTEP, -lua_gc(L, LUA_GCCOUNT));
}

/// luaL_newstate with its small blocks from `pool` (zeroed; release it after lua_close).
///
/// The global table and `package.loaded` are made at the size the standard libraries and a
/// context's host API fill (about 40 globals, 10 loaded libraries) before anything refers to
/// them: luaL_openlibs then fills them without growing them one rehash at a time (7 rehashes of
/// the globals, 4 of the loaded table: a ninth of luaL_openlibs' instructions). Nothing else
/// changes: the same keys and values, the same tables' roles (registry slots
/// LUA_RIDX_GLOBALS and LUA_LOADED_TABLE, which is where luaL_openlibs and lua_load look).
lua_State *flowlua_newpooledstate(flowlua_pool *pool) {
    lua_State *L = lua_newstate(flowlua_pool_alloc, pool);
    if (L != NULL) {
        lua_atpanic(L, flowlua_pool_panic);
        lua_setwarnf(L, flowlua_pool_warn_off, L);
        // (A new state has LUA_MINSTACK free slots; as in luaL_openlibs, which a context
        // calls next, running out of memory here is Lua's panic.)
        lua_createtable(L, 0, 64);
        lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
        lua_createtable(L, 0, 16);
        lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    }
    return L;
}

