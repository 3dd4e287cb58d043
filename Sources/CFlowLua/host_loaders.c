// --- a context's `loadfile`/`dofile`, its `package.path` searcher and its `print` ---
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include "cflowlua.h"

//
// C closures a context installs with a few API calls at every start (cflowlua.h says why). For
// everything the package does not serve they hand over to stock Lua's own functions.

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

/// `loadfile(filename [, mode [, env]])`: a packaged script by its relative path goes to stock
/// `load` (upvalue 2) as text, any other path to stock `loadfile` (upvalue 3).
static int flowlua_loadfile(lua_State *L) {
    int arguments = lua_gettop(L);
    const char *mode = luaL_optstring(L, 2, NULL);
    if (flowlua_fetch_script(L, 0)) { /* code, chunk name */
        /* a packaged script is text, as modules are: never a binary chunk */
        if (mode == NULL || strchr(mode, 't') != NULL) lua_pushliteral(L, "t");
        else lua_pushvalue(L, 2);
        if (arguments >= 3) lua_pushvalue(L, 3);
        lua_pushvalue(L, lua_upvalueindex(2));
        lua_insert(L, arguments + 1);
        lua_call(L, arguments >= 3 ? 4 : 3, LUA_MULTRET);
        return lua_gettop(L) - arguments;
    }
    luaL_optstring(L, 1, NULL); /* its argument errors name this function, at the caller's line */
    lua_pushvalue(L, lua_upvalueindex(3));
    lua_insert(L, 1);
    lua_call(L, arguments, LUA_MULTRET);
    return lua_gettop(L);
}

/// What `dofile` returns: everything the chunk returned (above the file name).
static int flowlua_dofile_results(lua_State *L, int status, lua_KContext context) {
    (void)status, (void)context;
    return lua_gettop(L) - 1;
}

/// `dofile(filename)`: runs a packaged script by its relative path (noted as run by path, so a
/// live change runs it again), or any other file. The chunk is called here, with a continuation
/// so it may yield, rather than through stock `dofile`, whose C frame would then show in every
/// traceback through it as an extra `[C]: in ?`.
static int flowlua_dofile(lua_State *L) {
    lua_settop(L, 1);
    if (flowlua_fetch_script(L, 1)) {
        size_t length;
        const char *code = lua_tolstring(L, 2, &length);
        if (luaL_loadbufferx(L, code, length, lua_tostring(L, 3), "t") != LUA_OK) return lua_error(L);
        lua_replace(L, 2);
        lua_settop(L, 2);
    } else {
        const char *filename = luaL_optstring(L, 1, NULL);
        if (luaL_loadfile(L, filename) != LUA_OK) return lua_error(L);
    }
    lua_callk(L, 0, LUA_MULTRET, 0, flowlua_dofile_results);
    return flowlua_dofile_results(L, LUA_OK, 0);
}

/// The last searcher: walks `package.path` as stock Lua's file searcher does, for a program
/// that adds its own folder to it (Penlight's `app.require_here`); a file the templates name
/// inside a source's module folder loads that module's code, named as stock Lua names the file;
/// no other file is read. With `package.path` empty (as it starts) it adds nothing, not even to
/// the "module not found" message. Upvalues: `fetch(filename) -> code | nil`, the package table.
static int flowlua_path_searcher(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    size_t pathLength;
    if (lua_getfield(L, lua_upvalueindex(2), "path") != LUA_TSTRING || lua_rawlen(L, 2) == 0) {
        lua_pushnil(L);
        return 1;
    }
    const char *path = lua_tolstring(L, 2, &pathLength);
    const char *file = luaL_gsub(L, name, ".", "/"); /* 3 */
    int tried = 0;
    lua_pushliteral(L, ""); /* 4: what was tried */
    for (size_t at = 0; at < pathLength;) {
        if (path[at] == ';') {
            at++;
            continue;
        }
        const char *end = memchr(path + at, ';', pathLength - at);
        size_t length = end ? (size_t)(end - (path + at)) : pathLength - at;
        lua_pushlstring(L, path + at, length);
        at += length;
        const char *filename = luaL_gsub(L, lua_tostring(L, -1), "?", file); /* 6 */
        lua_remove(L, 5);
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushvalue(L, 5);
        lua_call(L, 1, 1);
        if (!lua_isnil(L, 6)) {
            size_t codeLength;
            const char *code = lua_tolstring(L, 6, &codeLength);
            lua_pushfstring(L, "@%s", filename);
            if (luaL_loadbufferx(L, code, codeLength, lua_tostring(L, -1), "t") != LUA_OK) {
                lua_pushfstring(L, "error loading module '%s' from file '%s':\n\t%s", name, filename,
                                lua_tostring(L, -1));
                return lua_error(L);
            }
            lua_pushvalue(L, 5);
            return 2;
        }
        lua_pop(L, 1);
        if (tried++) lua_pushliteral(L, "\n\t");
        else lua_pushliteral(L, "");
        lua_pushliteral(L, "no file '");
        lua_rotate(L, 5, -1); /* ... tried, separator, "no file '", filename */
        lua_pushliteral(L, "'");
        lua_concat(L, 5);
    }
    return 1;
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

/// Installs `loadfile`, `dofile` and the `package.path` searcher (a lua_CFunction, called with
/// `fetch(path, running)` for scripts and `fetch(filename)` for module files).
int flowlua_install_loaders(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, 1);
    lua_getglobal(L, "load");
    lua_getglobal(L, "loadfile");
    lua_pushcclosure(L, flowlua_loadfile, 3);
    lua_setglobal(L, "loadfile");
    lua_pushvalue(L, 1);
    lua_pushcclosure(L, flowlua_dofile, 1);
    lua_setglobal(L, "dofile");
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "searchers"); /* 4 */
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_pushcclosure(L, flowlua_path_searcher, 2);
    lua_rawseti(L, 4, (lua_Integer)lua_rawlen(L, 4) + 1);
    return 0;
}

/// Makes `print` hand its lines to the host (a lua_CFunction, called with `write(line)`).
int flowlua_install_print(lua_State *L) {
    lua_settop(L, 1);
    lua_pushcclosure(L, flowlua_print, 1);
    lua_setglobal(L, "print");
    return 0;
}

