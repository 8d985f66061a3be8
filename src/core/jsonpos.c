/* jsonpos.c - locate values in JSON text by path (see jsonpos.h). */
#include "core/jsonpos.h"

#include <string.h>

struct scan {
    const char *s;
    size_t i;
};

static void ws(struct scan *sc)
{
    while (sc->s[sc->i] == ' ' || sc->s[sc->i] == '\t' || sc->s[sc->i] == '\n' || sc->s[sc->i] == '\r')
        sc->i++;
}

/* Skip a string starting at '"'; returns the index of its first content char. */
static size_t skip_string(struct scan *sc)
{
    size_t start = ++sc->i;
    while (sc->s[sc->i] && sc->s[sc->i] != '"') {
        if (sc->s[sc->i] == '\\' && sc->s[sc->i + 1])
            sc->i++;
        sc->i++;
    }
    if (sc->s[sc->i])
        sc->i++;
    return start;
}

static void skip_value(struct scan *sc)
{
    ws(sc);
    char c = sc->s[sc->i];
    if (c == '"') {
        skip_string(sc);
    } else if (c == '{' || c == '[') {
        int depth = 0;
        while (sc->s[sc->i]) {
            char d = sc->s[sc->i];
            if (d == '"') {
                skip_string(sc);
                continue;
            }
            if (d == '{' || d == '[')
                depth++;
            else if (d == '}' || d == ']') {
                depth--;
                if (depth == 0) {
                    sc->i++;
                    return;
                }
            }
            sc->i++;
        }
    } else {
        while (sc->s[sc->i] && !strchr(",}] \t\r\n", sc->s[sc->i]))
            sc->i++;
    }
}

/* Key match: compares the raw key text (configs do not use escapes in keys). */
static int key_is(const char *s, size_t start, const char *key)
{
    size_t n = strlen(key);
    return strncmp(s + start, key, n) == 0 && s[start + n] == '"';
}

static void to_linecol(const char *s, size_t at, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < at && s[i]; i++) {
        if (s[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
            c++; /* characters, not bytes, as jansson counts its columns */
        }
    }
    *line = l;
    *col = c;
}

int jsonpos_find(const char *text, const struct jpath_step *path, size_t depth, int want_key, int *line, int *col)
{
    struct scan sc = { text, 0 };
    size_t key_at = 0;
    ws(&sc);
    for (size_t d = 0; d < depth; d++) {
        ws(&sc);
        char c = sc.s[sc.i];
        if (path[d].key) {
            if (c != '{')
                return -1;
            sc.i++;
            for (;;) {
                ws(&sc);
                if (sc.s[sc.i] != '"')
                    return -1;
                key_at = sc.i;
                size_t k = skip_string(&sc);
                int match = key_is(sc.s, k, path[d].key);
                ws(&sc);
                if (sc.s[sc.i] != ':')
                    return -1;
                sc.i++;
                ws(&sc);
                if (match)
                    break;
                skip_value(&sc);
                ws(&sc);
                if (sc.s[sc.i] != ',')
                    return -1;
                sc.i++;
            }
        } else {
            if (c != '[')
                return -1;
            sc.i++;
            for (size_t k = 0; k < path[d].index; k++) {
                skip_value(&sc);
                ws(&sc);
                if (sc.s[sc.i] != ',')
                    return -1;
                sc.i++;
            }
            ws(&sc);
            key_at = sc.i;
        }
    }
    ws(&sc);
    to_linecol(text, want_key && depth > 0 ? key_at : sc.i, line, col);
    return 0;
}
