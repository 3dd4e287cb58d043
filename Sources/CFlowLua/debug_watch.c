// --- the debugger's hooks, in C so that a call costs no trip into Swift ---
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include "cflowlua.h"

#include <stdint.h>

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

struct flowlua_debug_watch {
    flowlua_watched_chunk *chunks;
    int chunk_count;
    lua_State *stepped;
    flowlua_debug_report report;
    flowlua_function_fact *facts;
    int fact_capacity, fact_count;  // capacity a power of two
};

/// The watch the hook reports through (one debugged state per process); only this file reads it.
static flowlua_debug_watch *flowlua_active_watch = NULL;

#define FLOWLUA_WATCH_LINES (LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE)
#define FLOWLUA_WATCH_RETURNS (LUA_MASKCALL | LUA_MASKRET)

flowlua_debug_watch *flowlua_watch_new(flowlua_debug_report report) {
    flowlua_debug_watch *w = (flowlua_debug_watch *)calloc(1, sizeof(flowlua_debug_watch));
    if (w != NULL) w->report = report;
    return w;
}

/// Forgets every chunk and every function's fact.
void flowlua_watch_clear(flowlua_debug_watch *w) {
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

void flowlua_watch_free(flowlua_debug_watch *w) {
    if (w == NULL) return;
    if (flowlua_active_watch == w) flowlua_active_watch = NULL;
    flowlua_watch_clear(w);
    free(w);
}

void flowlua_watch_activate(flowlua_debug_watch *w) { flowlua_active_watch = w; }

static int flowlua_watch_compare_lines(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/// Adds chunk `name` ("@" + chunk name) with `count` lines (copied); 0 when out of memory.
int flowlua_watch_add(flowlua_debug_watch *w, const char *name, const int *lines, int count) {
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


void flowlua_watch_step(flowlua_debug_watch *w, lua_State *L) { w->stepped = L; }

/// Whether `line` of the chunk `source` (as Lua keeps it) holds a breakpoint.
static int flowlua_watch_line(flowlua_debug_watch *w, const char *source, int line) {
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

static size_t flowlua_watch_slot(const void *source, int first, int last, int capacity) {
    uintptr_t hash = ((uintptr_t)source >> 3) * 2654435761u ^ (uintptr_t)first * 40503u ^ (uintptr_t)last;
    return (size_t)(hash & (uintptr_t)(capacity - 1));
}

static void flowlua_watch_remember(flowlua_debug_watch *w, const void *source, int first, int last, int holds) {
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
static int flowlua_watch_holds(flowlua_debug_watch *w, lua_State *L, lua_Debug *ar) {
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
static int flowlua_watch_below(flowlua_debug_watch *w, lua_State *L, int level) {
    lua_Debug ar;
    for (; lua_getstack(L, level, &ar); level++)
        if (flowlua_watch_holds(w, L, &ar)) return 1;
    return 0;
}

static void flowlua_debug_hook(lua_State *L, lua_Debug *ar);

/// Sets `L`'s hook for the function at `level` running next: every line on the stepped
/// thread; the line hook in a function that holds a breakpoint; the return hook too while one
/// below it does (its lines come back on when it runs again); else the call hook alone, or
/// nothing when no breakpoint is set.
void flowlua_watch_refresh(flowlua_debug_watch *w, lua_State *L, int level) {
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
static void flowlua_debug_hook(lua_State *L, lua_Debug *ar) {
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
void flowlua_watch_resuming(flowlua_debug_watch *w, lua_State *co) {
    if (co == w->stepped) lua_sethook(co, flowlua_debug_hook, FLOWLUA_WATCH_LINES, 0);
    else if (w->chunk_count == 0) lua_sethook(co, NULL, 0, 0);
    else lua_sethook(co, flowlua_debug_hook, FLOWLUA_WATCH_RETURNS, 0);
}

/// Asks `L` to stop at its next instruction (the count hook alone: a call hook firing first
/// would set the mask again and lose it). Safe from any thread, as lua.c's Ctrl-C is.
void flowlua_watch_interrupt(lua_State *L) {
    lua_sethook(L, flowlua_debug_hook, LUA_MASKCOUNT, 1);
}

/// Removes `L`'s hook.
void flowlua_watch_unhook(lua_State *L) { lua_sethook(L, NULL, 0, 0); }

