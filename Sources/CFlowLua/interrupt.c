// Ctrl-C on a running program, as lua.c takes it, coroutines included (cflowlua.h says why C).
//
// lua.c's handler sets a hook on the state's main thread, which never fires while a coroutine
// runs. Here `coroutine.resume` and `coroutine.wrap` are wrapped (stock Lua's own functions do
// the work) so that the threads running now are noted, outermost first; a request (from the
// CLI's SIGINT handling, the one place that catches signals) hooks them all, and the first to
// run raises "interrupted!". An interrupt raised in a coroutine goes on
// in its resumer with the coroutine's traceback, after the coroutine is closed, so a resume
// that ignores its results cannot swallow Ctrl-C. One armed state per process: the state below
// is this file's alone.
#include <lauxlib.h>
#include <lualib.h>
#include <signal.h>
#include <string.h>
#include "cflowlua.h"

/// Nested resumes stop at LUAI_MAXCCALLS (200), so the array always holds them all.
#define RUNNING_CAPACITY 256
/// The threads running now, outermost first; only the state's own thread writes them, the
/// signal handler reads them. A count of 0 means not armed.
static lua_State *running[RUNNING_CAPACITY];
static int running_count = 0;
/// Whether Ctrl-C came since the state was armed, and whether its "interrupted!" was raised.
static volatile sig_atomic_t came = 0;
static int raised = 0;
/// The thread the interrupt's error is unwinding now (what a resume of it passes on).
static lua_State *unwinding = NULL;

static void enter(lua_State *co) {
    int count = __atomic_load_n(&running_count, __ATOMIC_RELAXED);
    if (count == 0) return;
    if (count < RUNNING_CAPACITY) running[count] = co;
    __atomic_store_n(&running_count, count + 1, __ATOMIC_RELEASE);
}

static void leave(void) {
    int count = __atomic_load_n(&running_count, __ATOMIC_RELAXED);
    if (count > 1) __atomic_store_n(&running_count, count - 1, __ATOMIC_RELEASE);
}

/// The hook Ctrl-C sets on every running thread: the first to run raises "interrupted!" (in a
/// coroutine, with the coroutine's traceback: a wrapped function closes it before its resumer
/// sees the error); the others only take themselves off (one Ctrl-C, one error, as in lua.c).
static void stop(lua_State *L, lua_Debug *ar) {
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    if (raised) return;
    raised = 1;
    unwinding = L;
    if (L == running[0]) luaL_error(L, "interrupted!");
    luaL_where(L, 1);
    lua_pushliteral(L, "interrupted!");
    lua_concat(L, 2);
    luaL_traceback(L, L, lua_tostring(L, -1), 0);
    lua_error(L);
}

/// After `co` failed with the error on L's top: when it is the interrupt, `co` is closed (its
/// `<close>` variables run) and L raises it, with L's own traceback when L is a coroutine.
static void pass_on(lua_State *L, lua_State *co) {
    if (unwinding != co || lua_type(L, -1) != LUA_TSTRING) return;
    if (strstr(lua_tostring(L, -1), "interrupted!") == NULL) return;
    lua_resetthread(co);
    unwinding = L;
    if (L != running[0]) {
        luaL_traceback(L, L, lua_tostring(L, -1), 0);
        lua_remove(L, -2);
    }
    lua_error(L);
}

/// `coroutine.resume`: stock Lua's (upvalue 1), with the coroutine noted as running.
static int resume_noting(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "thread");
    int arguments = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    enter(co);
    int status = lua_pcall(L, arguments, LUA_MULTRET, 0);
    leave();
    if (status != LUA_OK) return lua_error(L);
    if (!lua_toboolean(L, 1) && lua_gettop(L) >= 2) {
        lua_settop(L, 2);
        pass_on(L, co);
    }
    return lua_gettop(L);
}

/// What `coroutine.wrap` returns: stock Lua's function (upvalue 1) for the coroutine in
/// upvalue 2, noted as running; its error, a string, gets the caller's place, as stock Lua's
/// gets it (the place stock Lua's function adds is this C frame's, empty).
static int wrapped_noting(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(2));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    enter(co);
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    leave();
    if (status == LUA_OK) return lua_gettop(L);
    pass_on(L, co);
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/// `coroutine.wrap`: stock Lua's (upvalue 1), its function wrapped by wrapped_noting.
static int wrap_noting(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    lua_getupvalue(L, 1, 1);  // the coroutine stock Lua's function resumes
    lua_pushcclosure(L, wrapped_noting, 2);
    return 1;
}

void flowlua_interrupt_arm(lua_State *L) {
    came = 0;
    raised = 0;
    unwinding = NULL;
    running[0] = L;
    __atomic_store_n(&running_count, 1, __ATOMIC_RELEASE);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, LUA_COLIBNAME) == LUA_TTABLE) {
        lua_getfield(L, -1, "resume");
        lua_pushcclosure(L, resume_noting, 1);
        lua_setfield(L, -2, "resume");
        lua_getfield(L, -1, "wrap");
        lua_pushcclosure(L, wrap_noting, 1);
        lua_setfield(L, -2, "wrap");
    }
    lua_pop(L, 2);
}

int flowlua_interrupt_request(void) {
    int count = __atomic_load_n(&running_count, __ATOMIC_ACQUIRE);
    if (count == 0) return 0;
    came = 1;
    if (count > RUNNING_CAPACITY) count = RUNNING_CAPACITY;
    for (int i = 0; i < count; i++) lua_sethook(running[i], stop, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    return 1;
}

int flowlua_interrupt_happened(void) { return came; }

int flowlua_interrupt_disarm(void) {
    __atomic_store_n(&running_count, 0, __ATOMIC_RELEASE);
    return came;
}
