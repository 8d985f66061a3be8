/* cliopt.c - command-line mistakes as one line (see cliopt.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cliopt.h"

#include <stdio.h>
#include <string.h>

#include "core/diag.h"

enum { USAGE = 2, MAX_NAMES = 128 };

/* The long option names of a table, NULL-terminated, into names[MAX_NAMES]. */
static void option_names(const struct option *longopts, const char **names)
{
    size_t n = 0;
    for (; longopts && longopts[n].name && n + 1 < MAX_NAMES; n++)
        names[n] = longopts[n].name;
    names[n] = NULL;
}

/* The name part of "--name=value" (no dashes), into buf. */
static void name_of(const char *arg, char *buf, size_t len)
{
    while (*arg == '-')
        arg++;
    size_t n = strcspn(arg, "=");
    if (n >= len)
        n = len - 1;
    memcpy(buf, arg, n);
    buf[n] = '\0';
}

/* The entry whose name is word, or else the only one it abbreviates; NULL
 * when none or several.  *matches counts the abbreviated ones. */
static const struct option *find_long(const struct option *longopts, const char *word, size_t *matches)
{
    const struct option *hit = NULL;
    size_t len = strlen(word);
    *matches = 0;
    for (const struct option *o = longopts; o && o->name; o++) {
        if (strcmp(o->name, word) == 0) {
            *matches = 1;
            return o;
        }
        if (len && strncmp(o->name, word, len) == 0) {
            ++*matches;
            hit = o;
        }
    }
    return *matches == 1 ? hit : NULL;
}

int cli_unknown_word(const char *cmd, const char *what, const char *word, const char *const *names)
{
    const char *s = diag_suggest(word, names);
    if (s)
        fprintf(stderr, "%s: unknown %s '%s' (did you mean '%s'?)\n", cmd, what, word, s);
    else
        fprintf(stderr, "%s: unknown %s '%s' (see '%s --help')\n", cmd, what, word, cmd);
    return USAGE;
}

int cli_unknown_option(const char *cmd, const char *arg, const struct option *longopts)
{
    const char *names[MAX_NAMES];
    char word[128], typed[136];
    option_names(longopts, names);
    name_of(arg, word, sizeof word);
    int dashes = arg[0] == '-' && arg[1] == '-' ? 2 : arg[0] == '-';
    snprintf(typed, sizeof typed, "%.*s%s", dashes, "--", word);
    size_t matches;
    if (dashes == 2 && !find_long(longopts, word, &matches) && matches > 1) {
        fprintf(stderr, "%s: option '%s' is ambiguous (", cmd, typed);
        const char *sep = "";
        for (const struct option *o = longopts; o->name; o++)
            if (word[0] && strncmp(o->name, word, strlen(word)) == 0) {
                fprintf(stderr, "%s--%s", sep, o->name);
                sep = ", ";
            }
        fputs(")\n", stderr);
        return USAGE;
    }
    const char *s = dashes == 2 ? diag_suggest(word, names) : NULL;
    if (s)
        fprintf(stderr, "%s: unknown option '%s' (did you mean '--%s'?)\n", cmd, typed, s);
    else
        fprintf(stderr, "%s: unknown option '%s' (see '%s --help')\n", cmd, typed, cmd);
    return USAGE;
}

/* glibc's getopt_long, with opterr = 0:
 *   unknown or ambiguous long option  '?', optopt 0, argv[optind - 1] the argument;
 *   a value given to a flag           '?', optopt the flag's val, argv[optind - 1] "--flag=value";
 *   missing value                     ':' when optstring starts with ':', else '?';
 *                                     optopt the option's val (or letter), argv[optind - 1]
 *                                     the option;
 *   unknown short option              '?', optopt the letter (optind moves past a
 *                                     cluster only at its last letter, so argv[optind - 1]
 *                                     may be an earlier argument). */
int cli_option_error(const char *cmd, int ch, char *const *argv, const char *shortopts,
                     const struct option *longopts)
{
    const char *arg = optind > 0 ? argv[optind - 1] : NULL;
    int is_long = arg && arg[0] == '-' && arg[1] == '-' && arg[2];
    if (optopt == 0)
        return cli_unknown_option(cmd, is_long ? arg : "?", longopts);
    if (is_long) {
        char word[128];
        size_t matches;
        name_of(arg, word, sizeof word);
        const struct option *o = find_long(longopts, word, &matches);
        if (o && o->val == optopt && (ch == ':' || o->has_arg == required_argument)) {
            fprintf(stderr, "%s: option '--%s' needs a value (see '%s --help')\n", cmd, o->name, cmd);
            return USAGE;
        }
        if (o && o->val == optopt && o->has_arg == no_argument) {
            fprintf(stderr, "%s: option '--%s' takes no value (see '%s --help')\n", cmd, o->name, cmd);
            return USAGE;
        }
        /* else a short option after it, in a cluster */
    }
    const char *p = optopt > 0 && optopt < 256 && optopt != ':' ? strchr(shortopts ? shortopts : "", optopt) : NULL;
    if (p && (ch == ':' || p[1] == ':'))
        fprintf(stderr, "%s: option '-%c' needs a value (see '%s --help')\n", cmd, optopt, cmd);
    else if (optopt > 0 && optopt < 256)
        fprintf(stderr, "%s: unknown option '-%c' (see '%s --help')\n", cmd, optopt, cmd);
    else
        fprintf(stderr, "%s: unknown option '%s' (see '%s --help')\n", cmd, arg ? arg : "?", cmd);
    return USAGE;
}
