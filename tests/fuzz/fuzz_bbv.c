/* fuzz_bbv.c - libFuzzer target for the basic-block vector parser
 * (src/simpoint/bbv.c, exp-bbv text format). */
#include <stdint.h>
#include <stdlib.h>

#include "simpoint/bbv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct diag d;
    diag_init(&d, NULL);
    struct bbv *b = bbv_parse((const char *)data, size, "<fuzz>", &d);
    if (!b && diag_ok(&d))
        abort();
    bbv_free(b);
    diag_free(&d);
    return 0;
}
