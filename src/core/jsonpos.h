/* jsonpos.h - find the line:column of a value inside JSON text by key path.
 * jansson does not keep positions of values, so validation errors locate the
 * offending value by re-scanning the (already valid) text.  Not a parser: it
 * assumes jansson accepted the text. */
#ifndef JSONPOS_H
#define JSONPOS_H

#include <stddef.h>

/* One step of a path: an object key (key != NULL) or an array index. */
struct jpath_step {
    const char *key;
    size_t index;
};

/* Position (1-based line and column) of the value at path, or of the key when
 * want_key is set.  Returns 0 on success, -1 if the path is not found. */
int jsonpos_find(const char *text, const struct jpath_step *path, size_t depth, int want_key,
                 int *line, int *col);

#endif
