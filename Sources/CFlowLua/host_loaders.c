// --- a context's `loadfile`/`dofile` and its `print` ---
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include "cflowlua.h"

//
// C closures a context installs with a few API calls at every start (cflowlua.h says why). For
// everything the package does not serve they run stock Lua's own functions, in their own frame.

/// Asks the host (upvalue 1: `fetch(path, running) -> code, chunkName | nothing`) for the
/// packaged script at argument 1, a relative path (leading "./" left out). On success pushes
/// the code and "@" + chunk name and returns 1; otherwise leaves the stack as it was.
static int flowlua_fetch_script(lua_State *L, int running) {
    if (lua_type(L, 1) != LUA_TSTRING) return 0;
    size_t length;
    const char *path = lua_tolstring(L, 1, &length);
    if (length > 0 && path[0] == '/') return 0;
    while (length >= 2 && path[0] == '.' && path[1] == '/') path += 2, length -= 2;
    int top = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushlstring(L, path, length);
    if (running) lua_pushboolean(L, 1);
    else lua_pushnil(L);
    lua_call(L, 2, 2);
    if (lua_isnil(L, -2)) {
        lua_settop(L, top);
        return 0;
    }
    lua_pushliteral(L, "@");
    lua_insert(L, -2);
    lua_concat(L, 2);
    return 1;
}

/// Runs stock Lua's library function in upvalue `upvalue` by its C pointer, in this frame: its
/// errors name this function at the caller's line and a traceback shows this one frame, as
/// stock Lua's own shows it.
static int flowlua_run_stock(lua_State *L, int upvalue) {
    lua_CFunction stock = lua_tocfunction(L, lua_upvalueindex(upvalue));
    return stock(L);
}

/// `loadfile(filename [, mode [, env]])`: a packaged script by its relative path goes to stock
/// `load` (upvalue 2) as text, any other path to stock `loadfile` (upvalue 3).
static int flowlua_loadfile(lua_State *L) {
    int arguments = lua_gettop(L);
    const char *mode = luaL_optstring(L, 2, NULL);
    if (!flowlua_fetch_script(L, 0)) return flowlua_run_stock(L, 3);
    /* code, chunk name; a packaged script is text, as modules are: never a binary chunk */
    if (mode == NULL || strchr(mode, 't') != NULL) lua_pushliteral(L, "t");
    else lua_pushvalue(L, 2);
    int count = 3;
    if (arguments >= 3) {
        lua_pushvalue(L, 3);
        count = 4;
    }
    lua_rotate(L, 1, count); /* load(code, chunk name, mode [, env]) */
    lua_settop(L, count);
    return flowlua_run_stock(L, 2);
}

/// What `dofile` returns: everything the chunk returned (above the file name).
static int flowlua_dofile_results(lua_State *L, int status, lua_KContext context) {
    (void)status, (void)context;
    return lua_gettop(L) - 1;
}

/// `dofile(filename)`: a packaged script by its relative path (noted as run by path, so a live
/// change runs it again) is compiled from the package's text and run here, with a continuation
/// so it may yield; any other path goes to stock `dofile` (upvalue 2).
static int flowlua_dofile(lua_State *L) {
    lua_settop(L, 1);
    if (!flowlua_fetch_script(L, 1)) return flowlua_run_stock(L, 2);
    size_t length;
    const char *code = lua_tolstring(L, 2, &length);
    if (luaL_loadbufferx(L, code, length, lua_tostring(L, 3), "t") != LUA_OK) return lua_error(L);
    lua_replace(L, 2);
    lua_settop(L, 2);
    lua_callk(L, 0, LUA_MULTRET, 0, flowlua_dofile_results);
    return flowlua_dofile_results(L, LUA_OK, 0);
}

/// `print(...)`: one line, its values as `tostring` shows them, separated by tabs, handed to
/// the host (upvalue 1: `write(line)`).
static int flowlua_print(lua_State *L) {
    int count = lua_gettop(L);
    luaL_Buffer line;
    luaL_buffinit(L, &line);
    for (int i = 1; i <= count; i++) {
        if (i > 1) luaL_addchar(&line, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&line);
    }
    luaL_addchar(&line, '\n');
    luaL_pushresult(&line);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, -2);
    lua_call(L, 1, 0);
    return 0;
}

/// Installs `loadfile` and `dofile` (a lua_CFunction, called with `fetch(path, running)`).
int flowlua_install_loaders(lua_State *L) {
    lua_settop(L, 1);
    lua_pushvalue(L, 1);
    lua_getglobal(L, "load");
    lua_getglobal(L, "loadfile");
    lua_pushcclosure(L, flowlua_loadfile, 3);
    lua_setglobal(L, "loadfile");
    lua_pushvalue(L, 1);
    lua_getglobal(L, "dofile");
    lua_pushcclosure(L, flowlua_dofile, 2);
    lua_setglobal(L, "dofile");
    return 0;
}

/// Makes `print` hand its lines to the host (a lua_CFunction, called with `write(line)`).
int flowlua_install_print(lua_State *L) {
    lua_settop(L, 1);
    lua_pushcclosure(L, flowlua_print, 1);
    lua_setglobal(L, "print");
    return 0;
}

