/* wlfix.c - LD_PRELOAD shim that pins time(2) for workloads that seed
 * internal hashing from the clock.  Lua 5.4 seeds its string hash with
 * time(NULL) mixed with addresses (luai_makeseed), so without this the
 * layout of every Lua table with string keys - and therefore the traced
 * addresses, values and branches - would change from one second to the next.
 * The shim returns 2000-01-01T00:00:00Z.  Used by workloads whose .wl sets
 * WL_PRELOAD_FIXTIME=1; the shim's own code runs a handful of instructions. */
#include <time.h>

time_t time(time_t *out)
{
    const time_t fixed = 946684800;
    if (out)
        *out = fixed;
    return fixed;
}
