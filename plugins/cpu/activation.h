/*
 * activation.h - what the activation kernel files share (activation.c defines it).
 */
#ifndef CPU_ACTIVATION_H
#define CPU_ACTIVATION_H

#include "nn_pointwise.h"

/* elu's coefficients in parameters 0 (negcoef = alpha * scale), 1 (poscoef = scale) and 2
 * (negiptcoef = input_scale), formed in the op's dtype as PyTorch forms them in scalar_t. */
void nn_elu_params(nnp_params *p, double alpha, double scale, double input_scale, int32_t dtype);

/* gelu's `approximate`: 0 for "none", 1 for "tanh", -1 (RuntimeError set) for anything else. */
int nn_gelu_approximate(const char *s);

#endif
