/* fuzz_config.c - libFuzzer target for the config loader (src/run/config.c):
 * any input is a config or a list of errors, each with a position; never a
 * crash.  The dictionary tests/fuzz/config.dict helps it find the keys. */
#include "fuzz_util.h" /* first: it defines _GNU_SOURCE (memfd_create) */

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "run/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    struct diag d;
    diag_init(&d, NULL);
    struct config *c = config_load(path, NULL, &d);
    if (!c && diag_ok(&d))
        abort(); /* a refused config names at least one error */
    char buf[4096];
    for (size_t i = 0; i < d.n; i++)
        diag_format(&d.items[i], buf, sizeof buf);
    config_free(c);
    diag_free(&d);
    close(fd);
    return 0;
}
