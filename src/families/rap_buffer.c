/* rap_buffer.c - the merging event buffer (see rap_buffer.h). */
#include "families/rap_buffer.h"

#include <stdlib.h>

int rap_buffer_init(struct rap_buffer *bf, size_t entries)
{
    bf->entries = entries ? entries : 1;
    if (bf->entries > ((size_t)1 << 31))
        bf->entries = (size_t)1 << 31;
    bf->e = calloc(bf->entries, sizeof *bf->e);
    bf->events = bf->evictions = 0;
    return bf->e ? 0 : -1;
}

void rap_buffer_destroy(struct rap_buffer *bf)
{
    free(bf->e);
    bf->e = NULL;
}

void rap_buffer_flush(struct rap_buffer *bf, struct rap_tree *t)
{
    for (size_t i = 0; i < bf->entries; i++) {
        struct rap_buffer_entry *x = &bf->e[i];
        if (x->count) {
            rap_tree_add_wide(t, x->hi, x->lo, x->count);
            x->count = 0;
        }
    }
}
