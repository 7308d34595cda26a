/* Thread-local error state: the last failure's kind and message, read by the front end. */
#include "core_internal.h"

#include <stdarg.h>
#include <stdio.h>

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

/* Configuration mistakes found while the core starts (an unparsable environment variable) are not
 * errors of any call, so they are reported here, once each, and the default is used. */
void tc_warn(const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "torch: warning: %s\n", msg);
}
