// --- a state with bounds, for Lua flowpkg evaluates on a user's behalf (.luacheckrc) ---
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include "cflowlua.h"

#include <time.h>


/// How many instructions run between two looks at the budget.
#define FLOWLUA_BUDGET_STEP 100

/// lua_Alloc that refuses to grow past `memory_limit`: Lua then raises "not enough memory".
/// Shrinking never fails, as Lua requires.
static void *flowlua_bounded_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    flowlua_budget *budget = (flowlua_budget *)ud;
    size_t old = ptr == NULL ? 0 : osize;
    if (nsize == 0) {
        free(ptr);
        budget->used -= old;
        return NULL;
    }
    if (nsize > old && budget->used - old + nsize > budget->memory_limit) {
        if (budget->exceeded == 0) budget->exceeded = 1;
        return NULL;
    }
    void *grown = realloc(ptr, nsize);
    if (grown != NULL) {
        budget->used = budget->used - old + nsize;
        if (budget->used > budget->peak) budget->peak = budget->used;
    }
    return grown;
}

static double flowlua_clock(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/// Count hook: past any bound (or once the allocator refused), every step raises an error, so
/// no pcall in the evaluated code can go on running.
static void flowlua_budget_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    void *ud = NULL;
    lua_getallocf(L, &ud);
    flowlua_budget *budget = (flowlua_budget *)ud;
    // Past a bound the hook runs at every instruction: count those one by one.
    budget->instructions += budget->exceeded == 0 ? FLOWLUA_BUDGET_STEP : 1;
    if (budget->exceeded == 0) {
        if (budget->instructions > budget->instruction_limit) budget->exceeded = 2;
        else if (flowlua_clock(CLOCK_MONOTONIC) > budget->wall_deadline
                 || flowlua_clock(CLOCK_THREAD_CPUTIME_ID) > budget->cpu_deadline) budget->exceeded = 3;
    }
    if (budget->exceeded != 0) {
        lua_sethook(L, flowlua_budget_hook, LUA_MASKCOUNT, 1);
        luaL_error(L, "evaluation stopped: past its budget");
    }
}

/// `budget_start()`: counts from now (instructions, wall clock and CPU time) and hooks the state.
static int flowlua_budget_start(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    flowlua_budget *budget = (flowlua_budget *)ud;
    budget->instructions = 0;
    budget->wall_deadline = flowlua_clock(CLOCK_MONOTONIC) + budget->seconds;
    budget->cpu_deadline = flowlua_clock(CLOCK_THREAD_CPUTIME_ID) + budget->seconds;
    lua_sethook(L, flowlua_budget_hook, LUA_MASKCOUNT, FLOWLUA_BUDGET_STEP);
    return 0;
}

/// `budget_stop()`: unhooks the state; returns whether a bound was passed.
static int flowlua_budget_stop(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    lua_sethook(L, NULL, 0, 0);
    lua_pushboolean(L, ((flowlua_budget *)ud)->exceeded != 0);
    return 1;
}

/// A state whose allocations and hooked runs `budget` bounds; NULL when even that fails.
lua_State *flowlua_newboundedstate(flowlua_budget *budget) {
    lua_State *L = lua_newstate(flowlua_bounded_alloc, budget);
    if (L == NULL) return NULL;
    luaL_openlibs(L);
    lua_pushcfunction(L, flowlua_budget_start);
    lua_setglobal(L, "budget_start");
    lua_pushcfunction(L, flowlua_budget_stop);
    lua_setglobal(L, "budget_stop");
    return L;
}

