/* mh_stratified.h - stratified sampler of Sastry et al. (paper section 4.2)
 * with software accumulation, scored per interval like the hardware models. */
#ifndef MH_STRATIFIED_H
#define MH_STRATIFIED_H
#include "../model.h"
extern const struct model_ops mh_stratified_ops; /* "stratified" */
#endif
