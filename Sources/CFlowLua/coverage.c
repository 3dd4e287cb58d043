// flowpkg test --coverage: every line a Lua state runs, counted by a line hook in C (a Lua hook
// costs a function call per line; this costs a few table operations). The same hook carries the
// runner's time limit: on its count events it calls the watchdog the runner gave.
//
// Lua side (Embedded/lua/runner.lua): coverage.start(watchdog, count), coverage.setcount(count),
// coverage.stop() -> { [chunkname] = { [line] = hits } }.
#include <lua.h>
#include <lauxlib.h>
#include "cflowlua.h"

// Registry keys (their addresses): the counts, the chunk's table being counted, the watchdog,
// and the last source seen (so most lines skip looking their chunk up).
static const char counts_key = 0;
static const char current_key = 0;
static const char watchdog_key = 0;
static const char last_key = 0;

static void coverage_hook(lua_State *L, lua_Debug *ar) {
    if (ar->event == LUA_HOOKCOUNT) {
        if (lua_rawgetp(L, LUA_REGISTRYINDEX, &watchdog_key) == LUA_TFUNCTION) {
            lua_call(L, 0, 0);
        } else {
            lua_pop(L, 1);
        }
        return;
    }
    if (ar->event != LUA_HOOKLINE || !lua_getinfo(L, "S", ar)) return;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &last_key);
    const void *last = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (last != (const void *)ar->source) {
        lua_rawgetp(L, LUA_REGISTRYINDEX, &counts_key);
        if (!lua_istable(L, -1)) {
            lua_pop(L, 1);
            return;
        }
        if (lua_getfield(L, -1, ar->source) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_newtable(L);
            lua_pushvalue(L, -1);
            lua_setfield(L, -3, ar->source);
        }
        lua_rawsetp(L, LUA_REGISTRYINDEX, &current_key);
        lua_pop(L, 1);
        lua_pushlightuserdata(L, (void *)ar->source);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &last_key);
    }
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &current_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_Integer hits = lua_rawgeti(L, -1, ar->currentline) == LUA_TNUMBER ? lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    lua_pushinteger(L, hits + 1);
    lua_rawseti(L, -2, ar->currentline);
    lua_pop(L, 1);
}

/// start(watchdog, count): counting starts on this thread (coroutines made later inherit it).
static int coverage_start(lua_State *L) {
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &counts_key);
    lua_pushvalue(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &watchdog_key);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &last_key);
    lua_sethook(L, coverage_hook, LUA_MASKLINE | LUA_MASKCOUNT, (int)luaL_optinteger(L, 2, 10000));
    return 0;
}

/// setcount(count): the watchdog's interval, in instructions.
static int coverage_setcount(lua_State *L) {
    lua_sethook(L, coverage_hook, LUA_MASKLINE | LUA_MASKCOUNT, (int)luaL_checkinteger(L, 1));
    return 0;
}

/// stop(): no more counting; returns the counts.
static int coverage_stop(lua_State *L) {
    lua_sethook(L, NULL, 0, 0);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &counts_key);
    return 1;
}

int flowlua_open_coverage(lua_State *L) {
    static const luaL_Reg functions[] = {
        {"start", coverage_start}, {"setcount", coverage_setcount}, {"stop", coverage_stop}, {NULL, NULL},
    };
    luaL_newlib(L, functions);
    return 1;
}
