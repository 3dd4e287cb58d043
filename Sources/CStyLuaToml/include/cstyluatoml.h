#ifndef CSTYLUATOML_H
#define CSTYLUATOML_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The kind of one TOML value, as toml++ types it.
typedef enum {
    CSTYLUATOML_STRING,
    CSTYLUATOML_INTEGER,
    CSTYLUATOML_FLOAT,
    CSTYLUATOML_BOOLEAN,
    CSTYLUATOML_TABLE,
    CSTYLUATOML_ARRAY,
    CSTYLUATOML_DATE_TIME,
} cstyluatoml_kind;

/// One key of a parsed document: `parent` is the index of the table holding it (-1 at the top),
/// `text` the string's value (a string) or NULL, `integer`/`boolean` the others' values.
typedef struct {
    long parent;
    const char *key;
    cstyluatoml_kind kind;
    const char *text;
    int64_t integer;
    int boolean;
    unsigned line;
    unsigned column;
} cstyluatoml_entry;

typedef struct cstyluatoml_document cstyluatoml_document;

/// Parses `length` bytes of TOML. On success returns the document (free it with
/// cstyluatoml_free); on failure returns NULL and, when error is not NULL, sets *error to a
/// malloc'd message (free it with free) and *line / *column to the place toml++ reports.
cstyluatoml_document *cstyluatoml_parse(
    const char *text, size_t length, char **error, unsigned *line, unsigned *column);

/// The document's keys, tables before what they hold, each table's keys in key order.
size_t cstyluatoml_count(const cstyluatoml_document *document);
cstyluatoml_entry cstyluatoml_at(const cstyluatoml_document *document, size_t index);

void cstyluatoml_free(cstyluatoml_document *document);

#ifdef __cplusplus
}
#endif

#endif
