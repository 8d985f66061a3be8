/* mh_cms_cu.h - count-min sketch with conservative update + candidate table,
 * at the memory of a multihash configuration (beyond the paper). */
#ifndef MH_CMS_CU_H
#define MH_CMS_CU_H
#include "../model.h"
extern const struct model_ops mh_cms_cu_ops; /* "cms_cu" */
#endif
