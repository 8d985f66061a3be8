/* registry.c - the table of profiler models, by name.  Adding a model is
 * adding its file under src/models/ and one line here. */
#include <string.h>

#include "model.h"

extern const struct model_ops counts_ops;
/* multi-hash paper (Narayanasamy et al., HPCA 2003) and streaming baselines */
extern const struct model_ops mh_exact_ops;
extern const struct model_ops mh_stratified_ops;
extern const struct model_ops mh_singlehash_ops;
extern const struct model_ops mh_multihash_ops;
extern const struct model_ops mh_bound_ops;
extern const struct model_ops mh_cms_cu_ops;
extern const struct model_ops mh_spacesaving_ops;
/* hardware-based profiling (Conte et al.) */
extern const struct model_ops conte_onelevel_ops;
extern const struct model_ops conte_twolevel_ops;
extern const struct model_ops conte_counter_ops;

static const struct model_ops *const models[] = {
    &counts_ops,
    &mh_exact_ops,
    &mh_stratified_ops,
    &mh_singlehash_ops,
    &mh_multihash_ops,
    &mh_bound_ops,
    &mh_cms_cu_ops,
    &mh_spacesaving_ops,
    &conte_onelevel_ops,
    &conte_twolevel_ops,
    &conte_counter_ops,
    NULL,
};

const struct model_ops *model_find(const char *name)
{
    for (size_t i = 0; models[i]; i++)
        if (strcmp(models[i]->name, name) == 0)
            return models[i];
    return NULL;
}

const struct model_ops *const *model_all(void) { return models; }
