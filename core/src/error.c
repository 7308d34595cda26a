/* Thread-local error state: the last failure's kind and message, read by the front end. */
#include "core_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>

static _Thread_local int error_kind;
static _Thread_local char error_message[1024];

int tc_set_error(int kind, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error_message, sizeof error_message, fmt, ap);
    va_end(ap);
    error_kind = kind == TC_ERR_NONE ? TC_ERR_RUNTIME : kind;
    return TC_FAIL;
}

int tc_last_error_kind(void) { return error_kind; }

const char *tc_last_error_message(void) { return error_kind ? error_message : ""; }

void tc_error_clear(void) {
    error_kind = TC_ERR_NONE;
    error_message[0] = 0;
}

/* Warnings: PyTorch's UserWarnings (a resized out= tensor) and configuration mistakes found while the
 * core starts (an unparsable environment variable, reported once and the default used). The front end
 * installs a handler that turns them into Python warnings; before it does, or without one, they go to
 * stderr. */
static _Atomic(tc_warning_handler) warning_handler;

void tc_set_warning_handler(tc_warning_handler handler) { atomic_store(&warning_handler, handler); }

void tc_warn(const char *fmt, ...) {
    char small[1024], *message = small;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof small) { /* long ones (anomaly mode's tracebacks) in full */
        char *big = malloc((size_t)n + 1);
        if (big) {
            va_start(ap, fmt);
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            va_end(ap);
            message = big;
        }
    }
    tc_warning_handler handler = atomic_load(&warning_handler);
    if (handler)
        handler(message);
    else
        fprintf(stderr, "torch: warning: %s\n", message);
    if (message != small) free(message);
}
