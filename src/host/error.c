/*
 * Errors as values (aplan_host_error): the kind and the message the CLI prints after "aplan: ". A message is built
 * with vsnprintf into a heap block of its exact size; a block that cannot be had leaves the error's oom flag, and
 * its text then reads "out of memory", so that no failure is ever silent.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* Append the printf text of format to *e's message (a new one when it has none). The attribute lets the compiler
 * check the callers' formats and take this one's as checked (clang's -Wformat-nonliteral). */
__attribute__((format(printf, 2, 0))) static void append(aplan_host_error *e, const char *format, va_list args) {
    va_list again;
    va_copy(again, args);
    const int n = vsnprintf(NULL, 0, format, args);
    const size_t have = e->message != NULL ? strlen(e->message) : 0;
    char *grown = n >= 0 ? realloc(e->message, have + (size_t)n + 1u) : NULL;
    if (grown == NULL) {
        free(e->message);
        e->message = NULL;
        e->oom = true;
    } else {
        (void)vsnprintf(grown + have, (size_t)n + 1u, format, again);
        e->message = grown;
    }
    va_end(again);
}

int aplan_host_error_set(aplan_host_error *e, int kind, const char *format, ...) {
    aplan_host_error_clear(e);
    e->kind = kind;
    va_list args;
    va_start(args, format);
    append(e, format, args);
    va_end(args);
    return kind;
}

void aplan_host_error_append(aplan_host_error *e, const char *format, ...) {
    if (e->oom) return;
    va_list args;
    va_start(args, format);
    append(e, format, args);
    va_end(args);
}

const char *aplan_host_error_text(const aplan_host_error *e) {
    return e->oom ? "out of memory" : e->message;
}

void aplan_host_error_clear(aplan_host_error *e) {
    free(e->message);
    memset(e, 0, sizeof *e);
}
