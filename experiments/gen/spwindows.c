/* spwindows.c - print the windows of a `hwprof simpoint --json` result as
 * lines a shell script can read (experiments/simpoints.sh, windows.sh and
 * the tests).
 *
 * Usage: spwindows FILE.json
 *
 * Output (every value as the JSON holds it; reals with %.10g, the
 * precision hwprof writes):
 *
 *   slice_length 50000000
 *   slices 14
 *   skipped 1
 *   clustered 13
 *   k 3
 *   windows 3
 *   window 4 200000000 0.3076923077 1 4
 *   window 9 450000000 0.2307692308 2 3
 *   window 10 500000000 0.4615384615 0 6
 *
 * "window" lines: slice, start, weight, cluster, cluster_size, in the
 * file's order (by slice).  The checks a capture relies on are made here:
 * at least one window, start = slice x slice_length, slice within
 * [skipped, slices), weights > 0 summing to 1 (within 1e-6).  Errors: one
 * line "spwindows: FILE: message" on stderr, exit status 1 (2: usage).
 * Built by experiments/lib.sh (exp_spwindows) against jansson.
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *file_name;

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...);

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "spwindows: %s: ", file_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* A non-negative integer member of obj (exit on anything else). */
static long long get_int(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        die("\"%s\" is missing or not a non-negative integer", key);
    return (long long)json_integer_value(v);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: spwindows FILE.json (the output of hwprof simpoint --json)\n", stderr);
        return 2;
    }
    file_name = argv[1];
    json_error_t err;
    json_t *root = json_load_file(file_name, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        fprintf(stderr, "spwindows: %s:%d:%d: %s\n", file_name, err.line, err.column, err.text);
        return 1;
    }
    if (!json_is_object(root))
        die("not a JSON object");
    long long len = get_int(root, "slice_length"), slices = get_int(root, "slices");
    long long skipped = get_int(root, "skipped"), clustered = get_int(root, "clustered");
    long long k = get_int(root, "k");
    json_t *wins = json_object_get(root, "windows");
    if (!json_is_array(wins) || json_array_size(wins) == 0)
        die("no \"windows\" array (or an empty one)");
    if (len <= 0)
        die("slice_length %lld is not positive", len);
    /* Check every window first, so that nothing is printed on an error. */
    double sum = 0;
    size_t i;
    json_t *w;
    json_array_foreach(wins, i, w) {
        if (!json_is_object(w))
            die("window %zu is not an object", i);
        long long slice = get_int(w, "slice"), start = get_int(w, "start");
        get_int(w, "cluster");
        get_int(w, "cluster_size");
        json_t *wv = json_object_get(w, "weight");
        double weight = json_number_value(wv);
        if (!json_is_number(wv) || !(weight > 0 && weight <= 1))
            die("window %zu: weight missing or not in (0, 1]", i);
        if (slice < skipped || slice >= slices)
            die("window at slice %lld is outside the clustered slices", slice);
        if (start / len != slice || start % len != 0)
            die("window at slice %lld: start is not slice x slice_length", slice);
        sum += weight;
    }
    if (fabs(sum - 1) > 1e-6)
        die("the window weights sum to %.9g, not 1", sum);
    printf("slice_length %lld\nslices %lld\nskipped %lld\nclustered %lld\nk %lld\nwindows %zu\n", len, slices,
           skipped, clustered, k, json_array_size(wins));
    json_array_foreach(wins, i, w) {
        printf("window %lld %lld %.10g %lld %lld\n", get_int(w, "slice"), get_int(w, "start"),
               json_number_value(json_object_get(w, "weight")), get_int(w, "cluster"), get_int(w, "cluster_size"));
    }
    json_decref(root);
    return fflush(stdout) == 0 ? 0 : 1;
}
