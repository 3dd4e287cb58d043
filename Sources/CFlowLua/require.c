// --- require that remembers which module required which (live reload of dependents) ---
#include <lauxlib.h>
#include <lualib.h>
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

/// `require(name)`: notes the requirer, then runs stock Lua's own `require` (loadlib.c's
/// ll_require, upvalue 4) by its C pointer, in this frame. Upvalues: the package table (upvalue 1,
/// where ll_require reads `package.searchers`, as in its own closure), chunk -> module name, the
/// notes, stock `require`.
int flowlua_require(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING) flowlua_require_note(L, 1);
    lua_CFunction stock = lua_tocfunction(L, lua_upvalueindex(4));
    return stock(L);
}
