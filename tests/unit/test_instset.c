/* test_instset.c - the deduplicated instances of a window (run/instset.h):
 * the key (model and every resolved parameter, reals bit for bit), the
 * union of the askers' tables, the outputs freed with the last release. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/instset.h"
#include "run/outbuf.h"

static void test_key(void **state)
{
    (void)state;
    const struct model_desc *mh = model_find("multihash"), *sh = model_find("singlehash");
    assert_non_null(mh);
    assert_non_null(sh);
    struct instset *s = instset_create();
    assert_non_null(s);
    struct param_values a, b, c, d;
    params_defaults(&a, mh->params);
    b = a;
    c = a;
    pv_set_int(&c, "tables", 2);
    assert_int_equal(instset_add(s, mh, &a, NULL), 0);
    assert_int_equal(instset_add(s, mh, &b, NULL), 0);  /* the same key: shared */
    assert_int_equal(instset_add(s, mh, &c, NULL), 1);  /* another parameter value */
    params_defaults(&d, sh->params);
    assert_int_equal(instset_add(s, sh, &d, NULL), 2);  /* another model */
    /* a real set to the value it already has is the same key; -0.0 is not 0.0 */
    struct param_values e = a, f;
    pv_set_real(&e, "threshold", pv_real(&a, "threshold"));
    assert_int_equal(instset_add(s, mh, &e, NULL), 0);
    f = a;
    size_t ti;
    assert_non_null(params_find(mh->params, "threshold", &ti));
    f.v[ti].r = 0.0;
    e = a;
    e.v[ti].r = -0.0;
    size_t fi = instset_add(s, mh, &f, NULL), ei = instset_add(s, mh, &e, NULL);
    assert_int_equal(fi, 3);
    assert_int_equal(ei, 4);
    assert_int_equal(instset_count(s), 5);
    assert_int_equal(instset_asked(s), 7);
    assert_int_equal(instset_users(s, 0), 3);
    assert_int_equal(instset_users(s, 1), 1);
    instset_free(s);
}

static void test_tables_and_release(void **state)
{
    (void)state;
    const struct model_desc *mh = model_find("multihash");
    assert_int_equal(model_count_tables(mh), 1); /* series */
    struct instset *s = instset_create();
    struct param_values pv;
    params_defaults(&pv, mh->params);
    bool none[1] = { false }, series[1] = { true };
    assert_int_equal(instset_add(s, mh, &pv, none), 0);
    assert_int_equal(instset_add(s, mh, &pv, series), 0);
    assert_int_equal(instset_add(s, mh, &pv, NULL), 0);
    struct engine_inst *in = instset_insts(s);
    assert_non_null(in);
    assert_true(in[0].wanted_tables[0]); /* the union */
    assert_non_null(in[0].out);
    union cell cells[8];
    memset(cells, 0, sizeof cells);
    out_row(in[0].out, 0, cells); /* kept: someone wants the series */
    assert_int_equal(model_out_rows(in[0].out, 0), 1);
    /* nothing more can be added once the outputs exist */
    pv_set_int(&pv, "tables", 3);
    assert_int_equal(instset_add(s, mh, &pv, NULL), SIZE_MAX);
    instset_release(s, 0);
    instset_release(s, 0);
    assert_non_null(in[0].out);
    instset_release(s, 0);
    assert_null(in[0].out); /* the last asker freed it */
    instset_release(s, 0);  /* one too many: ignored */
    instset_free(s);
}

static void test_many(void **state)
{
    (void)state;
    const struct model_desc *mh = model_find("multihash");
    struct instset *s = instset_create();
    struct param_values pv;
    params_defaults(&pv, mh->params);
    /* enough keys to grow the index several times, each asked twice */
    for (int round = 0; round < 2; round++)
        for (int k = 1; k <= 3000; k++) {
            pv_set_int(&pv, "interval", k);
            assert_int_equal(instset_add(s, mh, &pv, NULL), (size_t)(k - 1));
        }
    assert_int_equal(instset_count(s), 3000);
    assert_int_equal(instset_asked(s), 6000);
    struct engine_inst *in = instset_insts(s);
    assert_non_null(in);
    assert_int_equal(pv_int(&in[2999].pv, "interval"), 3000);
    instset_free(s); /* frees the outputs not released */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key),
        cmocka_unit_test(test_tables_and_release),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
