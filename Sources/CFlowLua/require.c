// --- require that remembers which module required which (live reload of dependents) ---
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include "cflowlua.h"


/// Notes `requires[requirer][name] = true`, where the requirer is the innermost module whose main
/// chunk is running (upvalue 2 maps a module's chunk to its name), so a reload can re-run the
/// modules that hold the old value. A require from no module's main chunk notes nothing.
static void flowlua_require_note(lua_State *L, int nameIndex) {
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        lua_getinfo(L, "f", &ar);
        if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TSTRING) {
            lua_pushvalue(L, -1);
            if (lua_rawget(L, lua_upvalueindex(3)) != LUA_TTABLE) {
                lua_pop(L, 1);
                lua_createtable(L, 0, 4);
                lua_pushvalue(L, -2);
                lua_pushvalue(L, -2);
                lua_rawset(L, lua_upvalueindex(3));
            }
            lua_pushvalue(L, nameIndex);
            lua_pushboolean(L, 1);
            lua_rawset(L, -3);
            lua_pop(L, 2);
            return;
        }
        lua_pop(L, 1);
    }
}

/// Lua 5.4.4's `require` (loadlib.c's ll_require and findloader, same messages and results),
/// plus flowlua_require_note. Upvalues: the package table, chunk -> module name, the requires
/// table. A C function rather than a Lua wrapper, so errors still point at the caller's line and
/// tracebacks still say "in function 'require'".
int flowlua_require(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    flowlua_require_note(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_getfield(L, 2, name);
    if (lua_toboolean(L, -1)) return 1;
    lua_pop(L, 1);
    /* findloader */
    luaL_Buffer msg;
    if (lua_getfield(L, lua_upvalueindex(1), "searchers") != LUA_TTABLE)
        luaL_error(L, "'package.searchers' must be a table");
    luaL_buffinit(L, &msg);
    for (int i = 1; ; i++) {
        luaL_addstring(&msg, "\n\t");
        if (lua_rawgeti(L, 3, i) == LUA_TNIL) {
            lua_pop(L, 1);
            luaL_buffsub(&msg, 2);
            luaL_pushresult(&msg);
            luaL_error(L, "module '%s' not found:%s", name, lua_tostring(L, -1));
        }
        lua_pushstring(L, name);
        lua_call(L, 1, 2);
        if (lua_isfunction(L, -2)) break;
        else if (lua_isstring(L, -2)) {
            lua_pop(L, 1);
            luaL_addvalue(&msg);
        } else {
            lua_pop(L, 2);
            luaL_buffsub(&msg, 2);
        }
    }
    /* ll_require, after findloader */
    lua_rotate(L, -2, 1);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -3);
    lua_call(L, 2, 1);
    if (!lua_isnil(L, -1)) lua_setfield(L, 2, name);
    else lua_pop(L, 1);
    if (lua_getfield(L, 2, name) == LUA_TNIL) {
        lua_pushboolean(L, 1);
        lua_copy(L, -1, -2);
        lua_setfield(L, 2, name);
    }
    lua_rotate(L, -2, 1);
    return 2;
}

