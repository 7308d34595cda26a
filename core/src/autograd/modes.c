/*
 * Grad mode is the thread's exclusion of TC_KEY_AUTOGRAD: with the key excluded no op reaches its
 * autograd step, so torch.no_grad costs nothing per op. Inference mode adds a mark on the tensors
 * made meanwhile (tensor.c reads tc_tls_inference_mode). Anomaly mode is process-wide, as in PyTorch.
 */
#include "autograd_internal.h"

_Thread_local bool tc_tls_inference_mode;

bool tc_grad_enabled(void) { return !(tc_dispatch_excluded() & TC_KEYBIT(TC_KEY_AUTOGRAD)); }
TC_INTERNAL bool tc_ag_grad_mode(void) { return tc_grad_enabled(); }

void tc_set_grad_enabled(bool enabled) {
    tc_keyset ex = tc_dispatch_excluded();
    tc_dispatch_set_excluded(enabled ? ex & ~TC_KEYBIT(TC_KEY_AUTOGRAD) : ex | TC_KEYBIT(TC_KEY_AUTOGRAD));
}

bool tc_inference_mode_enabled(void) { return tc_tls_inference_mode; }
void tc_set_inference_mode(bool enabled) { tc_tls_inference_mode = enabled; }
bool tc_tensor_is_inference(const tc_tensor *t) { return (t->flags & TC_TENSOR_INFERENCE) != 0; }

static atomic_bool anomaly_on, anomaly_nan;
static _Atomic(tc_trace_fn) trace_fn;

void tc_set_anomaly_enabled(bool enabled, bool check_nan) {
    atomic_store(&anomaly_on, enabled);
    atomic_store(&anomaly_nan, enabled && check_nan);
}
bool tc_anomaly_enabled(void) { return atomic_load(&anomaly_on); }
bool tc_anomaly_check_nan(void) { return atomic_load(&anomaly_nan); }
void tc_set_anomaly_trace_fn(tc_trace_fn fn) { atomic_store(&trace_fn, fn); }

char *tc_ag_capture_trace(void) {
    tc_trace_fn fn = atomic_load(&trace_fn);
    return fn && atomic_load(&anomaly_on) ? fn() : NULL;
}
