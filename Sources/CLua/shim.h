#ifndef FLOWPKG_CLUA_SHIM_H
#define FLOWPKG_CLUA_SHIM_H
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

// Lua's API spells these as function-like macros, which Swift cannot import: one stateless
// inline function each. Everything else flowpkg needs in C is in CFlowLua's .c files.

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
/// LUA_COPYRIGHT is a macro of joined strings, which Swift does not import: what `lua -v` prints.
static inline const char *flowlua_copyright(void) { return LUA_COPYRIGHT; }

/// lua_gc is variadic, which Swift cannot call.
static inline void flowlua_gc_stop(lua_State *L) { lua_gc(L, LUA_GCSTOP); }
/// lua_newuserdata is a macro.
static inline void *flowlua_newuserdata(lua_State *L, size_t size) { return lua_newuserdatauv(L, size, 1); }
/// lua_isfunction is a macro.
static inline int flowlua_isfunction(lua_State *L, int i) { return lua_isfunction(L, i); }

#endif
