// flowpkg test --coverage: every line a Lua state runs in the chunks asked for, counted by a line
// hook in C (a Lua hook costs a function call per line; this costs a few table operations, and
// almost nothing on a line of a chunk not asked for). The same hook carries the runner's time
// limit: on its count events it calls the watchdog the runner gave.
//
// Lua side (Embedded/lua/runner.lua): coverage.start(watchdog, count, wanted) with `wanted` a
// set of chunk names ("@src/calc.lua"), coverage.setcount(count), and coverage.stop(), which
// returns { [chunkname] = { [line] = hits } }.
#include <lua.h>
#include <lauxlib.h>
#include "cflowlua.h"

// Registry keys (their addresses): the counts, the set of chunks wanted, the watchdog, the
// function that ran the last line (held, so its address is not reused while it is compared),
// and the table counting it (nil when its chunk is not wanted).
static const char counts_key = 0;
static const char wanted_key = 0;
static const char watchdog_key = 0;
static const char last_function_key = 0;
static const char current_key = 0;

/// The counts table of the chunk of the function at the top of the stack's activation `ar`, or
/// nil when the chunk is not wanted; left on the stack.
static void push_counts_for(lua_State *L, lua_Debug *ar) {
    lua_getinfo(L, "S", ar);
    int wanted = 0;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &wanted_key) == LUA_TTABLE) {
        wanted = lua_getfield(L, -1, ar->source) != LUA_TNIL;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (!wanted) {
        lua_pushnil(L);
        return;
    }
    lua_rawgetp(L, LUA_REGISTRYINDEX, &counts_key);
    if (lua_getfield(L, -1, ar->source) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, ar->source);
    }
    lua_remove(L, -2);
}

static void coverage_hook(lua_State *L, lua_Debug *ar) {
    if (ar->event == LUA_HOOKCOUNT) {
        if (lua_rawgetp(L, LUA_REGISTRYINDEX, &watchdog_key) == LUA_TFUNCTION) {
            lua_call(L, 0, 0);
        } else {
            lua_pop(L, 1);
        }
        return;
    }
    if (ar->event != LUA_HOOKLINE || !lua_getinfo(L, "f", ar)) return;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &last_function_key);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 1);
    if (!same) {
        lua_rawsetp(L, LUA_REGISTRYINDEX, &last_function_key);
        push_counts_for(L, ar);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &current_key);
    } else {
        lua_pop(L, 1);
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

/// start(watchdog, count, wanted): counting starts on this thread (coroutines made later inherit it).
static int coverage_start(lua_State *L) {
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &counts_key);
    lua_pushvalue(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &watchdog_key);
    lua_pushvalue(L, 3);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wanted_key);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &last_function_key);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &current_key);
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
