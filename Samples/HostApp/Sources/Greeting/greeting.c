#include "greeting.h"

#include <lauxlib.h>
#include <lua.h>

/* greeting.hello(name) -> "hello, <name>, from C" */
static int greeting_hello(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_pushfstring(L, "hello, %s, from C", name);
    return 1;
}

static const luaL_Reg greeting_functions[] = {
    {"hello", greeting_hello},
    {NULL, NULL},
};

int luaopen_greeting(lua_State *L) {
    luaL_newlib(L, greeting_functions);
    lua_pushstring(L, LUA_VERSION_MAJOR "." LUA_VERSION_MINOR);
    lua_setfield(L, -2, "luaVersion");
    return 1;
}
