// stylua.toml through toml++, the parser TOMLKit wraps, called from C so that Swift needs no
// C++ interop and flowpkg's binary no Foundation (TOMLKit's Swift layer imports it: see
// Benchmarks/README.md, "stylua.toml without TOMLKit").
#include "cstyluatoml.h"

// Compiled in (header-only), whatever pkg-config's flags say: a binary that loaded
// libtomlplusplus.so at every start would need it installed wherever it runs, for the one
// command that reads stylua.toml. Only the parser: no formatters.
#undef TOML_HEADER_ONLY
#undef TOML_SHARED_LIB
#define TOML_HEADER_ONLY 1
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>

#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

struct cstyluatoml_document {
    // deque: the strings' addresses stay put while entries are added.
    std::deque<std::string> strings;
    std::vector<cstyluatoml_entry> entries;

    const char *keep(std::string_view text) {
        strings.emplace_back(text);
        return strings.back().c_str();
    }

    void add(const toml::table &table, long parent) {
        for (auto &&[key, node] : table) {
            cstyluatoml_entry entry{};
            entry.parent = parent;
            entry.key = keep(key.str());
            entry.line = node.source().begin.line;
            entry.column = node.source().begin.column;
            switch (node.type()) {
            case toml::node_type::string:
                entry.kind = CSTYLUATOML_STRING;
                entry.text = keep(node.value_exact<std::string>().value_or(""));
                break;
            case toml::node_type::integer:
                entry.kind = CSTYLUATOML_INTEGER;
                entry.integer = node.value_exact<int64_t>().value_or(0);
                break;
            case toml::node_type::floating_point: entry.kind = CSTYLUATOML_FLOAT; break;
            case toml::node_type::boolean:
                entry.kind = CSTYLUATOML_BOOLEAN;
                entry.boolean = node.value_exact<bool>().value_or(false) ? 1 : 0;
                break;
            case toml::node_type::table: entry.kind = CSTYLUATOML_TABLE; break;
            case toml::node_type::array: entry.kind = CSTYLUATOML_ARRAY; break;
            default: entry.kind = CSTYLUATOML_DATE_TIME; break;
            }
            entries.push_back(entry);
            if (auto *inner = node.as_table()) add(*inner, long(entries.size() - 1));
        }
    }
};

extern "C" cstyluatoml_document *cstyluatoml_parse(
    const char *text, size_t length, char **error, unsigned *line, unsigned *column) {
    try {
        toml::table table = toml::parse(std::string_view(text, length));
        auto *document = new cstyluatoml_document();
        document->add(table, -1);
        return document;
    } catch (const toml::parse_error &failure) {
        if (error) *error = strdup(std::string(failure.description()).c_str());
        if (line) *line = failure.source().begin.line;
        if (column) *column = failure.source().begin.column;
    } catch (...) {
        if (error) *error = strdup("the TOML reader failed");
        if (line) *line = 0;
        if (column) *column = 0;
    }
    return nullptr;
}

extern "C" size_t cstyluatoml_count(const cstyluatoml_document *document) {
    return document->entries.size();
}

extern "C" cstyluatoml_entry cstyluatoml_at(const cstyluatoml_document *document, size_t index) {
    return document->entries[index];
}

extern "C" void cstyluatoml_free(cstyluatoml_document *document) { delete document; }
