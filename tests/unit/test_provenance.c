/* test_provenance.c - src/core/provenance.c: the run-time git state of a config
 * against the build's revision (prov_git_file_state: clean, modified,
 * untracked, unknown) in a scratch repository, and the "build" object of
 * the sidecar (git_dirty true unless the config is clean). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/provenance.h"

static char repo[256], outside[256], rev[64];

static void sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (system(cmd) != 0)
        fail_msg("command failed: %s", cmd);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* A repository with sub/c.json committed; rev is that commit (short, as
 * scripts/buildinfo.sh records it). */
static int setup(void **state)
{
    (void)state;
    if (system("git --version >/dev/null 2>&1") != 0)
        return 0; /* the tests skip */
    snprintf(repo, sizeof repo, "/tmp/hwprof-test-git.XXXXXX");
    snprintf(outside, sizeof outside, "/tmp/hwprof-test-nogit.XXXXXX");
    if (!mkdtemp(repo) || !mkdtemp(outside))
        return -1;
    char p[512];
    snprintf(p, sizeof p, "%s/sub", repo);
    sh("mkdir -p %s && git -C %s init -q", p, repo);
    snprintf(p, sizeof p, "%s/sub/c.json", repo);
    write_file(p, "{\"paper\": \"x\"}\n");
    snprintf(p, sizeof p, "%s/sub/gone.json", repo);
    write_file(p, "{}\n");
    sh("cd %s && git add sub && git -c user.name=t -c user.email=t@t -c commit.gpgsign=false commit -qm one", repo);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "git -C %s rev-parse --short=12 HEAD", repo);
    FILE *f = popen(cmd, "r");
    if (!f || !fgets(rev, sizeof rev, f))
        return -1;
    pclose(f);
    rev[strcspn(rev, "\n")] = '\0';
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (repo[0] && strncmp(repo, "/tmp/hwprof-test-git.", 21) == 0)
        sh("rm -rf %s", repo);
    if (outside[0] && strncmp(outside, "/tmp/hwprof-test-nogit.", 23) == 0)
        sh("rm -rf %s", outside);
    return 0;
}

#define NEED_GIT()                                                                                                     \
    do {                                                                                                               \
        if (!rev[0])                                                                                                   \
            skip();                                                                                                    \
    } while (0)

static void test_clean_modified(void **state)
{
    (void)state;
    NEED_GIT();
    char p[512];
    snprintf(p, sizeof p, "%s/sub/c.json", repo);
    assert_string_equal(prov_git_file_state(p, rev), "clean");
    write_file(p, "{\"paper\": \"y\"}\n");
    assert_string_equal(prov_git_file_state(p, rev), "modified");
    /* staged is still not the revision's content */
    sh("git -C %s add sub/c.json", repo);
    assert_string_equal(prov_git_file_state(p, rev), "modified");
    write_file(p, "{\"paper\": \"x\"}\n");
    assert_string_equal(prov_git_file_state(p, rev), "clean");
}

static void test_untracked(void **state)
{
    (void)state;
    NEED_GIT();
    char p[512];
    snprintf(p, sizeof p, "%s/sub/new.json", repo);
    write_file(p, "{}\n");
    assert_string_equal(prov_git_file_state(p, rev), "untracked");
    /* added and committed after the build's revision: not in it */
    sh("cd %s && git add sub/new.json && git -c user.name=t -c user.email=t@t -c commit.gpgsign=false commit -qm two",
       repo);
    assert_string_equal(prov_git_file_state(p, rev), "untracked");
    /* a path with pathspec characters is taken literally */
    snprintf(p, sizeof p, "%s/sub/*.json", repo);
    write_file(p, "{}\n");
    assert_string_equal(prov_git_file_state(p, rev), "untracked");
}

static void test_relative_path(void **state)
{
    (void)state;
    NEED_GIT();
    char cwd[1024], sub[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(sub, sizeof sub, "%s/sub", repo);
    assert_int_equal(chdir(sub), 0);
    const char *a = prov_git_file_state("c.json", rev);
    const char *b = prov_git_file_state("./c.json", rev);
    assert_int_equal(chdir(repo), 0);
    const char *c = prov_git_file_state("sub/c.json", rev);
    assert_int_equal(chdir(cwd), 0);
    assert_string_equal(a, "clean");
    assert_string_equal(b, "clean");
    assert_string_equal(c, "clean");
}

static void test_unknown(void **state)
{
    (void)state;
    NEED_GIT();
    char p[512];
    snprintf(p, sizeof p, "%s/sub/c.json", repo);
    assert_string_equal(prov_git_file_state(p, "unknown"), "unknown");
    assert_string_equal(prov_git_file_state(p, "0123456789ab"), "unknown"); /* not in this repository */
    snprintf(p, sizeof p, "%s/c.json", outside);
    write_file(p, "{}\n");
    assert_string_equal(prov_git_file_state(p, rev), "unknown"); /* not in a checkout */
    snprintf(p, sizeof p, "%s/missing/c.json", outside);
    assert_string_equal(prov_git_file_state(p, rev), "unknown");
}

static void test_deleted(void **state)
{
    (void)state;
    NEED_GIT();
    /* in the revision, but no longer readable: not clean */
    char p[512];
    snprintf(p, sizeof p, "%s/sub/gone.json", repo);
    assert_int_equal(unlink(p), 0);
    assert_string_equal(prov_git_file_state(p, rev), "unknown");
}

/* The sidecar's build object: git_config present, git_dirty true for a
 * config that is not clean, whatever the sources' state. */
static void test_build_object(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/x.json", outside[0] ? outside : "/nonexistent");
    json_t *b = prov_build(p);
    assert_true(json_is_string(json_object_get(b, "git_config")));
    assert_string_equal(json_string_value(json_object_get(b, "git_config")), "unknown");
    assert_true(json_is_true(json_object_get(b, "git_dirty")));
    assert_true(json_is_boolean(json_object_get(b, "git_sources_dirty")));
    json_decref(b);
    b = prov_build(NULL);
    assert_null(json_object_get(b, "git_config"));
    assert_true(json_equal(json_object_get(b, "git_dirty"), json_object_get(b, "git_sources_dirty")));
    json_decref(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_modified), cmocka_unit_test(test_untracked), cmocka_unit_test(test_relative_path),
        cmocka_unit_test(test_unknown),        cmocka_unit_test(test_deleted),   cmocka_unit_test(test_build_object),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
