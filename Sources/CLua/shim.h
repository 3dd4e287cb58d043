#ifndef FLOWPKG_CLUA_SHIM_H
#define FLOWPKG_CLUA_SHIM_H
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

// Lua's API spells these as function-like macros, which Swift cannot import.

static inline void flowlua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline const char *flowlua_tostring(lua_State *L, int i, size_t *len) { return lua_tolstring(L, i, len); }
static inline int flowlua_pcall(lua_State *L, int nargs, int nresults, int msgh) { return lua_pcall(L, nargs, nresults, msgh); }
static inline void flowlua_newtable(lua_State *L) { lua_newtable(L); }
static inline void flowlua_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcfunction(L, f); }
static inline int flowlua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline void flowlua_insert(lua_State *L, int i) { lua_insert(L, i); }
static inline void flowlua_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void flowlua_replace(lua_State *L, int i) { lua_replace(L, i); }
static inline int flowlua_isnoneornil(lua_State *L, int i) { return lua_isnoneornil(L, i); }
static inline lua_Number flowlua_tonumber(lua_State *L, int i) { return lua_tonumber(L, i); }
static inline lua_Integer flowlua_tointeger(lua_State *L, int i) { return lua_tointeger(L, i); }
static inline void *flowlua_getextraspace(lua_State *L) { return lua_getextraspace(L); }
static inline int flowlua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void flowlua_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
static inline int flowlua_getmetatable_named(lua_State *L, const char *name) { return luaL_getmetatable(L, name); }

/// Message handler for lua_pcall: appends a traceback to the error message.
static inline int flowlua_traceback_handler(lua_State *L) {
    const char *message = lua_tostring(L, 1);
    if (message == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
            message = lua_tostring(L, -1);
        } else {
            message = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
        }
    }
    luaL_traceback(L, L, message, 1);
    return 1;
}

#endif
