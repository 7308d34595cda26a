/*
 * blis_lapack.c - the "blis" provider's LAPACK: Debian's reference LAPACK (liblapack-dev's
 * liblapack_pic.a), linked into the plugin, its BLAS calls served by the same libblis as the GEMMs.
 *
 * Why linked in rather than liblapack.so.3: that soname is an alternatives slot that usually points
 * at OpenBLAS's LAPACK (and numpy may have loaded it already, in which case the loader would hand us
 * that one), and its libblas.so.3 dependency would bring a second BLAS, with a thread pool of its
 * own, into the process. Linked in and hidden (--exclude-libs), the routines are ours alone, and
 * their dgemm_/dtrsm_/... calls bind to libblis.so.4, which the plugin has set to the best kernel set
 * for this CPU (blis_provider.c).
 *
 * The reference xerbla prints and stops the process on an illegal argument; the one below replaces
 * it (the archive's is then never linked) and lets the routine return its negative info, which
 * lapack_glue.h reports as TC_LAPACK_BADARG. The glue refuses such arguments before calling anyway.
 */
#include <stdio.h>

#include "lapack_glue.h"

#define DECLARE(name) extern lapack_##name##_fn s##name##_, d##name##_;
LAPACK_GLUE_ROUTINES(DECLARE)
#undef DECLARE
#define DECLARE(name) extern lapack_c##name##_fn c##name##_, z##name##_;
LAPACK_GLUE_COMPLEX_ROUTINES(DECLARE)
#undef DECLARE
extern void ilaver_(lapack_int *major, lapack_int *minor, lapack_int *patch);

void xerbla_(const char *name, const lapack_int *info, size_t len);
void xerbla_(const char *name, const lapack_int *info, size_t len) { (void)name, (void)info, (void)len; }

static char blis_lapack_description[96];
static const tc_lapack blis_lapack_api = LAPACK_GLUE_API(blis_lapack_description);

/* complex_thread_setup: run before each complex routine on its thread (blis_provider.c's switch of
 * BLIS's thread-local complex method, see lapack_glue_complex_thread_setup). */
const tc_lapack *blis_lapack_init(void (*complex_thread_setup)(void));
const tc_lapack *blis_lapack_init(void (*complex_thread_setup)(void)) {
    lapack_glue_complex_thread_setup = complex_thread_setup;
#define FILL(name) lapack_glue_fns.name[0] = s##name##_, lapack_glue_fns.name[1] = d##name##_;
    LAPACK_GLUE_ROUTINES(FILL)
#undef FILL
#define FILL(name) lapack_glue_fns.c##name[0] = c##name##_, lapack_glue_fns.c##name[1] = z##name##_;
    LAPACK_GLUE_COMPLEX_ROUTINES(FILL)
#undef FILL
    lapack_int major = 0, minor = 0, patch = 0;
    ilaver_(&major, &minor, &patch);
    snprintf(blis_lapack_description, sizeof blis_lapack_description,
             "reference LAPACK %d.%d.%d (Debian's liblapack, linked in; BLAS calls to BLIS)", major, minor, patch);
    return &blis_lapack_api;
}
