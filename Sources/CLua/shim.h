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
/// LUA_COPYRIGHT is a macro of joined strings, which Swift does not import: what `lua -v` prints.
static inline const char *flowlua_copyright(void) { return LUA_COPYRIGHT; }

/// lua_gc is variadic, which Swift cannot call.
static inline void flowlua_gc_stop(lua_State *L) { lua_gc(L, LUA_GCSTOP); }

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

// --- require that remembers which module required which (live reload of dependents) ---

/// Notes `requires[requirer][name] = true`, where the requirer is the innermost module whose main
/// chunk is running (upvalue 2 maps a module's chunk to its name), so a reload can re-run the
/// modules that hold the old value. A require from no module's main chunk notes nothing.
static inline void flowlua_require_note(lua_State *L, int nameIndex) {
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
static inline int flowlua_require(lua_State *L) {
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

// --- FlowRuntime's context bridge (appended by the runtime engineer) ---

/// A Swift function Lua calls through flowlua_trampoline: it returns its result count, or -1
/// after pushing an error value, so lua_error's longjmp starts here in C and never crosses Swift.
typedef int (*flowlua_SwiftFunction)(lua_State *L);

/// Calls the Swift function in upvalue 1 and raises the error it pushed, from C.
static inline int flowlua_trampoline(lua_State *L) {
    flowlua_SwiftFunction body = (flowlua_SwiftFunction)lua_touserdata(L, lua_upvalueindex(1));
    int results = body(L);
    if (results < 0) return lua_error(L);
    return results;
}

/// Pushes a C closure running `body` through the trampoline; the `upvalues` values on top of the
/// stack become its upvalues 2...n+1 (upvalue 1 holds `body`). Swift cannot cast a function
/// pointer to the light userdata Lua stores, so the cast lives here.
static inline void flowlua_pushswiftfunction(lua_State *L, flowlua_SwiftFunction body, int upvalues) {
    lua_pushlightuserdata(L, (void *)body);
    lua_insert(L, -(upvalues + 1));
    lua_pushcclosure(L, flowlua_trampoline, upvalues + 1);
}

/// `t[k] = v` with metamethods (stack: t k v), run under lua_pcall because __newindex may raise.
static inline int flowlua_settable_body(lua_State *L) { lua_settable(L, 1); return 0; }

/// `t[k]` with metamethods (stack: t k), run under lua_pcall because __index may raise.
static inline int flowlua_gettable_body(lua_State *L) { lua_gettable(L, 1); return 1; }

/// lua_newuserdata is a macro; the runtime's closures keep their Swift id in one.
static inline void *flowlua_newuserdata(lua_State *L, size_t size) { return lua_newuserdatauv(L, size, 1); }

/// lua_isfunction is a macro.
static inline int flowlua_isfunction(lua_State *L, int i) { return lua_isfunction(L, i); }

#include <pthread.h>
#ifndef __APPLE__
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attributes);  // a GNU extension Swift's Glibc leaves out
#endif

/// The calling thread's stack size in bytes (0 when unknown), asked once per thread: whether
/// a context may run Lua on the caller's thread rather than its own.
static inline size_t flowlua_thread_stack_size(void) {
    static _Thread_local size_t known = 0;
    if (known != 0) return known;
#ifdef __APPLE__
    known = pthread_get_stacksize_np(pthread_self());
#else
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    size_t size = 0;
    pthread_attr_getstacksize(&attributes, &size);
    pthread_attr_destroy(&attributes);
    known = size;
#endif
    return known;
}

// --- a state with bounds, for Lua flowpkg evaluates on a user's behalf (.luacheckrc) ---

#include <stdlib.h>
#include <time.h>

/// What a bounded state may still use, and which bound it passed first (0 none, 1 memory,
/// 2 instructions, 3 time). Held by the allocator's user data, so the hook finds it too.
typedef struct flowlua_budget {
    size_t used, peak, memory_limit;
    long long instructions, instruction_limit;
    double wall_deadline, cpu_deadline, seconds;
    int exceeded;
} flowlua_budget;

/// How many instructions run between two looks at the budget.
#define FLOWLUA_BUDGET_STEP 100

/// lua_Alloc that refuses to grow past `memory_limit`: Lua then raises "not enough memory".
/// Shrinking never fails, as Lua requires.
static inline void *flowlua_bounded_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
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

static inline double flowlua_clock(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/// Count hook: past any bound (or once the allocator refused), every step raises an error, so
/// no pcall in the evaluated code can go on running.
static inline void flowlua_budget_hook(lua_State *L, lua_Debug *ar) {
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
static inline int flowlua_budget_start(lua_State *L) {
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
static inline int flowlua_budget_stop(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    lua_sethook(L, NULL, 0, 0);
    lua_pushboolean(L, ((flowlua_budget *)ud)->exceeded != 0);
    return 1;
}

/// A state whose allocations and hooked runs `budget` bounds; NULL when even that fails.
static inline lua_State *flowlua_newboundedstate(flowlua_budget *budget) {
    lua_State *L = lua_newstate(flowlua_bounded_alloc, budget);
    if (L == NULL) return NULL;
    luaL_openlibs(L);
    lua_pushcfunction(L, flowlua_budget_start);
    lua_setglobal(L, "budget_start");
    lua_pushcfunction(L, flowlua_budget_stop);
    lua_setglobal(L, "budget_stop");
    return L;
}

// --- Ctrl-C on a running program, as lua.c does it, coroutines included ---

#include <pthread.h>
#include <signal.h>
#include <string.h>

/// The threads of the interruptible state that are running now, outermost first: its main
/// thread, then each coroutine resumed from there (what Ctrl-C hooks, since a loop in a
/// coroutine never passes through the main thread's hook). Only the state's own thread writes
/// them, and the signal handler reads them. Nested resumes stop at LUAI_MAXCCALLS (200), so the
/// array always holds them all. Used from LuaInterrupt.swift alone, so the copies each file
/// including this header gets never disagree.
#define FLOWLUA_RUNNING_CAPACITY 256
/// The slots, a function's static array.
static inline lua_State **flowlua_running_slots(void) {
    static lua_State *slots[FLOWLUA_RUNNING_CAPACITY];
    return slots;
}
static int flowlua_running_count = 0;
/// Whether Ctrl-C came since the state was armed, and whether its "interrupted!" was raised.
static volatile sig_atomic_t flowlua_interrupt_came = 0;
static int flowlua_interrupt_raised = 0;
/// The thread the interrupt's error is unwinding now (what a resume of it passes on).
static lua_State *flowlua_interrupt_thread = NULL;

static inline void flowlua_running_enter(lua_State *co) {
    int count = __atomic_load_n(&flowlua_running_count, __ATOMIC_RELAXED);
    if (count == 0) return;  // not armed
    if (count < FLOWLUA_RUNNING_CAPACITY) flowlua_running_slots()[count] = co;
    __atomic_store_n(&flowlua_running_count, count + 1, __ATOMIC_RELEASE);
}

static inline void flowlua_running_leave(void) {
    int count = __atomic_load_n(&flowlua_running_count, __ATOMIC_RELAXED);
    if (count > 1) __atomic_store_n(&flowlua_running_count, count - 1, __ATOMIC_RELEASE);
}

/// The hook a Ctrl-C sets on every running thread: the first to run raises "interrupted!";
/// the others only take themselves off (one Ctrl-C, one error, as in lua.c).
static inline void flowlua_interrupt_stop(lua_State *L, lua_Debug *ar) {
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    if (flowlua_interrupt_raised) return;
    flowlua_interrupt_raised = 1;
    flowlua_interrupt_thread = L;
    luaL_error(L, "interrupted!");
}

static inline void flowlua_interrupt_action(int signal_number) {
    signal(signal_number, SIG_DFL);  // a second Ctrl-C ends the process at once
    flowlua_interrupt_came = 1;
    int count = __atomic_load_n(&flowlua_running_count, __ATOMIC_ACQUIRE);
    if (count > FLOWLUA_RUNNING_CAPACITY) count = FLOWLUA_RUNNING_CAPACITY;
    for (int i = 0; i < count; i++)
        lua_sethook(flowlua_running_slots()[i], flowlua_interrupt_stop, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/// Whether the error `co` just failed with (on L's top) is the interrupt: then it goes on in
/// L with co's traceback, co is closed (its `<close>` variables run), and L raises it, so a
/// `coroutine.resume` that ignores its results cannot swallow Ctrl-C.
static inline void flowlua_interrupt_pass_on(lua_State *L, lua_State *co) {
    if (flowlua_interrupt_thread != co || lua_type(L, -1) != LUA_TSTRING) return;
    const char *message = lua_tostring(L, -1);
    if (strstr(message, "interrupted!") == NULL) return;
    luaL_traceback(L, co, message, 0);
    lua_remove(L, -2);
    lua_resetthread(co);
    flowlua_interrupt_thread = L;
    lua_error(L);
}

/// lcorolib's resume, noting `co` as running while it runs: its results, or -1 with the error
/// on L's top.
static inline int flowlua_resume_noted(lua_State *L, lua_State *co, int arguments) {
    if (!lua_checkstack(co, arguments)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, arguments);
    int results = 0;
    flowlua_running_enter(co);
    int status = lua_resume(co, L, arguments, &results);
    flowlua_running_leave();
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_xmove(co, L, 1);
        flowlua_interrupt_pass_on(L, co);
        return -1;
    }
    if (!lua_checkstack(L, results + 1)) {
        lua_pop(co, results);
        lua_pushliteral(L, "too many results to resume");
        return -1;
    }
    lua_xmove(co, L, results);
    return results;
}

/// `coroutine.resume`, as stock Lua's, with the coroutine noted as running.
static inline int flowlua_coroutine_resume(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "thread");
    int results = flowlua_resume_noted(L, co, lua_gettop(L) - 1);
    if (results < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(results + 1));
    return results + 1;
}

/// What `coroutine.wrap` returns, as stock Lua's: resumes the coroutine in upvalue 1 and
/// raises its error, closed and with the caller's place, as lcorolib's auxwrap does.
static inline int flowlua_coroutine_wrapped(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int results = flowlua_resume_noted(L, co, lua_gettop(L));
    if (results >= 0) return results;
    int status = lua_status(co);
    if (status != LUA_OK && status != LUA_YIELD) {
        status = lua_resetthread(co);
        lua_xmove(co, L, 1);
    }
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/// `coroutine.wrap`, as stock Lua's, through flowlua_coroutine_wrapped.
static inline int flowlua_coroutine_wrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, flowlua_coroutine_wrapped, 1);
    return 1;
}

/// From now until flowlua_interrupt_disarm, Ctrl-C stops what `L` runs with "interrupted!",
/// in whichever of its threads runs: `coroutine.resume` and `coroutine.wrap` are replaced by
/// ones that note the coroutine running. Call on the thread that runs `L`.
static inline void flowlua_interrupt_arm(lua_State *L) {
    flowlua_interrupt_came = 0;
    flowlua_interrupt_raised = 0;
    flowlua_interrupt_thread = NULL;
    flowlua_running_slots()[0] = L;
    __atomic_store_n(&flowlua_running_count, 1, __ATOMIC_RELEASE);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, LUA_COLIBNAME) == LUA_TTABLE) {
        lua_pushcfunction(L, flowlua_coroutine_resume);
        lua_setfield(L, -2, "resume");
        lua_pushcfunction(L, flowlua_coroutine_wrap);
        lua_setfield(L, -2, "wrap");
    }
    lua_pop(L, 2);
    signal(SIGINT, flowlua_interrupt_action);
    // A process started by another may inherit SIGINT and SIGTERM blocked (a test runner
    // blocks them): this thread takes both (SIGTERM keeps its default action, status 143).
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/// Whether Ctrl-C came since the state was armed.
static inline int flowlua_interrupt_happened(void) { return flowlua_interrupt_came; }

/// Ctrl-C gets its default action back (call before closing the state: a Ctrl-C while
/// finalizers run then ends the process, as in lua.c); returns whether one came.
static inline int flowlua_interrupt_disarm(void) {
    signal(SIGINT, SIG_DFL);
    __atomic_store_n(&flowlua_running_count, 0, __ATOMIC_RELEASE);
    return flowlua_interrupt_came;
}

// --- the debugger's hooks, in C so that a call costs no trip into Swift ---
//
// Used from LuaDebugHooks.swift alone (the one file whose copy of `flowlua_active_watch` is
// read), as the interrupt state above is from LuaStandalone.swift.

#include <stdint.h>
#include <string.h>

/// A chunk that holds breakpoints: its name as Lua keeps it ("@" + chunk name) and its lines.
typedef struct flowlua_watched_chunk {
    char *name;
    int *lines;  // ascending
    int count, low, high;
} flowlua_watched_chunk;

/// Whether one function (its chunk name's address and its first and last lines) holds a
/// breakpoint among its own active lines; `source` NULL marks a free slot.
typedef struct flowlua_function_fact {
    const void *source;
    int first, last, holds;
} flowlua_function_fact;

/// Called for what Swift decides: a watched line about to run, any line of the stepped
/// thread, and a count hook (an interrupt).
typedef void (*flowlua_debug_report)(lua_State *L, lua_Debug *ar);

typedef struct flowlua_debug_watch {
    flowlua_watched_chunk *chunks;
    int chunk_count;
    lua_State *stepped;
    flowlua_debug_report report;
    flowlua_function_fact *facts;
    int fact_capacity, fact_count;  // capacity a power of two
} flowlua_debug_watch;

static flowlua_debug_watch *flowlua_active_watch = NULL;

#define FLOWLUA_WATCH_LINES (LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE)
#define FLOWLUA_WATCH_RETURNS (LUA_MASKCALL | LUA_MASKRET)

static inline flowlua_debug_watch *flowlua_watch_new(flowlua_debug_report report) {
    flowlua_debug_watch *w = (flowlua_debug_watch *)calloc(1, sizeof(flowlua_debug_watch));
    if (w != NULL) w->report = report;
    return w;
}

/// Forgets every chunk and every function's fact.
static inline void flowlua_watch_clear(flowlua_debug_watch *w) {
    for (int i = 0; i < w->chunk_count; i++) {
        free(w->chunks[i].name);
        free(w->chunks[i].lines);
    }
    free(w->chunks);
    w->chunks = NULL;
    w->chunk_count = 0;
    free(w->facts);
    w->facts = NULL;
    w->fact_capacity = 0;
    w->fact_count = 0;
}

static inline void flowlua_watch_free(flowlua_debug_watch *w) {
    if (w == NULL) return;
    if (flowlua_active_watch == w) flowlua_active_watch = NULL;
    flowlua_watch_clear(w);
    free(w);
}

static inline void flowlua_watch_activate(flowlua_debug_watch *w) { flowlua_active_watch = w; }

static inline int flowlua_watch_compare_lines(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/// Adds chunk `name` ("@" + chunk name) with `count` lines (copied); 0 when out of memory.
static inline int flowlua_watch_add(flowlua_debug_watch *w, const char *name, const int *lines, int count) {
    if (count <= 0) return 1;
    flowlua_watched_chunk *grown =
        (flowlua_watched_chunk *)realloc(w->chunks, sizeof(flowlua_watched_chunk) * (size_t)(w->chunk_count + 1));
    if (grown == NULL) return 0;
    w->chunks = grown;
    flowlua_watched_chunk *chunk = &w->chunks[w->chunk_count];
    chunk->name = strdup(name);
    chunk->lines = (int *)malloc(sizeof(int) * (size_t)count);
    if (chunk->name == NULL || chunk->lines == NULL) {
        free(chunk->name);
        free(chunk->lines);
        return 0;
    }
    memcpy(chunk->lines, lines, sizeof(int) * (size_t)count);
    qsort(chunk->lines, (size_t)count, sizeof(int), flowlua_watch_compare_lines);
    chunk->count = count;
    chunk->low = chunk->lines[0];
    chunk->high = chunk->lines[count - 1];
    w->chunk_count += 1;
    return 1;
}

static inline int flowlua_watch_count(flowlua_debug_watch *w) { return w->chunk_count; }

static inline void flowlua_watch_step(flowlua_debug_watch *w, lua_State *L) { w->stepped = L; }

/// Whether `line` of the chunk `source` (as Lua keeps it) holds a breakpoint.
static inline int flowlua_watch_line(flowlua_debug_watch *w, const char *source, int line) {
    if (source == NULL) return 0;
    for (int i = 0; i < w->chunk_count; i++) {
        flowlua_watched_chunk *chunk = &w->chunks[i];
        if (line < chunk->low || line > chunk->high || strcmp(chunk->name, source) != 0) continue;
        int low = 0, high = chunk->count - 1;
        while (low <= high) {
            int middle = (low + high) / 2;
            if (chunk->lines[middle] == line) return 1;
            if (chunk->lines[middle] < line) low = middle + 1; else high = middle - 1;
        }
    }
    return 0;
}

static inline size_t flowlua_watch_slot(const void *source, int first, int last, int capacity) {
    uintptr_t hash = ((uintptr_t)source >> 3) * 2654435761u ^ (uintptr_t)first * 40503u ^ (uintptr_t)last;
    return (size_t)(hash & (uintptr_t)(capacity - 1));
}

static inline void flowlua_watch_remember(flowlua_debug_watch *w, const void *source, int first, int last, int holds) {
    if ((w->fact_count + 1) * 2 > w->fact_capacity) {
        int capacity = w->fact_capacity == 0 ? 64 : w->fact_capacity * 2;
        flowlua_function_fact *facts = (flowlua_function_fact *)calloc((size_t)capacity, sizeof(flowlua_function_fact));
        if (facts == NULL) return;  // not remembered: worked out again next time
        for (int i = 0; i < w->fact_capacity; i++) {
            flowlua_function_fact *fact = &w->facts[i];
            if (fact->source == NULL) continue;
            size_t slot = flowlua_watch_slot(fact->source, fact->first, fact->last, capacity);
            while (facts[slot].source != NULL) slot = (slot + 1) & (size_t)(capacity - 1);
            facts[slot] = *fact;
        }
        free(w->facts);
        w->facts = facts;
        w->fact_capacity = capacity;
    }
    size_t slot = flowlua_watch_slot(source, first, last, w->fact_capacity);
    while (w->facts[slot].source != NULL) slot = (slot + 1) & (size_t)(w->fact_capacity - 1);
    w->facts[slot] = (flowlua_function_fact){source, first, last, holds};
    w->fact_count += 1;
}

/// Whether the function `ar` stands for (from a hook or lua_getstack) holds a breakpoint among
/// its own active lines (not those of functions nested in it): worked out once from its
/// `activelines`, then looked up by its chunk name's address and its lines.
static inline int flowlua_watch_holds(flowlua_debug_watch *w, lua_State *L, lua_Debug *ar) {
    if (w->chunk_count == 0) return 0;
    lua_getinfo(L, "S", ar);
    if (ar->source == NULL || ar->what[0] == 'C') return 0;
    const void *source = ar->source;
    int first = ar->linedefined, last = ar->lastlinedefined;
    if (w->fact_capacity > 0) {
        size_t slot = flowlua_watch_slot(source, first, last, w->fact_capacity);
        while (w->facts[slot].source != NULL) {
            flowlua_function_fact *fact = &w->facts[slot];
            if (fact->source == source && fact->first == first && fact->last == last) return fact->holds;
            slot = (slot + 1) & (size_t)(w->fact_capacity - 1);
        }
    }
    int holds = 0;
    int end = last <= 0 ? INT32_MAX : last;
    for (int i = 0; i < w->chunk_count && !holds; i++) {
        flowlua_watched_chunk *chunk = &w->chunks[i];
        if (chunk->high < first || chunk->low > end || strcmp(chunk->name, ar->source) != 0) continue;
        lua_getinfo(L, "L", ar);
        if (lua_type(L, -1) == LUA_TTABLE) {
            for (int j = 0; j < chunk->count && !holds; j++) {
                int line = chunk->lines[j];
                if (line < first || line > end) continue;
                holds = lua_rawgeti(L, -1, line) != LUA_TNIL;
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
    }
    flowlua_watch_remember(w, source, first, last, holds);
    return holds;
}

/// Whether a function at `level` or below on `L`'s stack holds a breakpoint.
static inline int flowlua_watch_below(flowlua_debug_watch *w, lua_State *L, int level) {
    lua_Debug ar;
    for (; lua_getstack(L, level, &ar); level++)
        if (flowlua_watch_holds(w, L, &ar)) return 1;
    return 0;
}

static inline void flowlua_debug_hook(lua_State *L, lua_Debug *ar);

/// Sets `L`'s hook for the function at `level` running next: every line on the stepped
/// thread; the line hook in a function that holds a breakpoint; the return hook too while one
/// below it does (its lines come back on when it runs again); else the call hook alone, or
/// nothing when no breakpoint is set.
static inline void flowlua_watch_refresh(flowlua_debug_watch *w, lua_State *L, int level) {
    if (L == w->stepped) { lua_sethook(L, flowlua_debug_hook, FLOWLUA_WATCH_LINES, 0); return; }
    if (w->chunk_count == 0) { lua_sethook(L, NULL, 0, 0); return; }
    lua_Debug ar;
    int mask = LUA_MASKCALL;
    if (lua_getstack(L, level, &ar) && flowlua_watch_holds(w, L, &ar)) mask = FLOWLUA_WATCH_LINES;
    else if (flowlua_watch_below(w, L, level + 1)) mask = FLOWLUA_WATCH_RETURNS;
    lua_sethook(L, flowlua_debug_hook, mask, 0);
}

/// The hook itself. A call costs a lookup of the function's fact (and `lua_sethook` only when
/// the mask changes); Swift hears only of the lines and interrupts it must decide on.
static inline void flowlua_debug_hook(lua_State *L, lua_Debug *ar) {
    flowlua_debug_watch *w = flowlua_active_watch;
    if (w == NULL) return;
    switch (ar->event) {
    case LUA_HOOKCALL:
    case LUA_HOOKTAILCALL: {
        if (L == w->stepped) return;
        int mask = lua_gethookmask(L);
        int wanted;
        if (flowlua_watch_holds(w, L, ar)) wanted = FLOWLUA_WATCH_LINES;
        // Returns are watched while a function further down holds a breakpoint.
        else wanted = (mask & (LUA_MASKLINE | LUA_MASKRET)) ? FLOWLUA_WATCH_RETURNS : LUA_MASKCALL;
        if (wanted != mask) lua_sethook(L, flowlua_debug_hook, wanted, 0);
        return;
    }
    case LUA_HOOKRET:
        // The caller runs again next: its own mask.
        if (L != w->stepped) flowlua_watch_refresh(w, L, 1);
        return;
    case LUA_HOOKLINE:
        if (L != w->stepped) {
            lua_getinfo(L, "S", ar);
            if (!flowlua_watch_line(w, ar->source, ar->currentline)) return;
        }
        w->report(L, ar);
        return;
    case LUA_HOOKCOUNT:
        flowlua_watch_refresh(w, L, 0);
        w->report(L, ar);
        return;
    default:
        return;
    }
}

/// The hook a coroutine about to be resumed gets: the return hook, so that coming back from
/// its yield sets the mask its function needs (none when nothing is watched).
static inline void flowlua_watch_resuming(flowlua_debug_watch *w, lua_State *co) {
    if (co == w->stepped) lua_sethook(co, flowlua_debug_hook, FLOWLUA_WATCH_LINES, 0);
    else if (w->chunk_count == 0) lua_sethook(co, NULL, 0, 0);
    else lua_sethook(co, flowlua_debug_hook, FLOWLUA_WATCH_RETURNS, 0);
}

/// Asks `L` to stop at its next instruction (the count hook alone: a call hook firing first
/// would set the mask again and lose it). Safe from any thread, as lua.c's Ctrl-C is.
static inline void flowlua_watch_interrupt(lua_State *L) {
    lua_sethook(L, flowlua_debug_hook, LUA_MASKCOUNT, 1);
}

/// Removes `L`'s hook.
static inline void flowlua_watch_unhook(lua_State *L) { lua_sethook(L, NULL, 0, 0); }

#endif
