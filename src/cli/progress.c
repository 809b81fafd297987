/*
 * The progress line of long runs: `aplan plan` on a large input says on standard error what it is doing ("aplan:
 * planning greedy_by_size (3 of 5)..."), one line rewritten in place, once the run has taken about a second, and
 * only when standard error is a terminal, so that nothing changes for scripts, pipes, logs or the CSV and JSON on
 * standard output. The clock is read between phases only (no timer, no signal): a single long phase shows the line
 * from the next phase on. A search is the exception: its stop callback reads the clock anyway, and rewrites the line
 * with the nodes searched so far ("aplan: searching exact (5 of 5): 1200000 nodes, lower bound 12...",
 * cli_progress_note). Everything that writes to standard error clears the line first (cli_progress_end), so an
 * error message never lands in the middle of it.
 *
 * APLAN_PROGRESS_AFTER_MS (decimal milliseconds, default 1000) moves the threshold; it is a testing knob (0 shows
 * every phase). A value that is not all digits is ignored.
 *
 * Building with -DCLI_PHASE_TIMES (e.g. `meson configure -Dc_args=-DCLI_PHASE_TIMES`) also prints, whatever stderr
 * is, one line per phase with its wall time ("aplan: phase planning linear (1 of 1): 312.4 ms"): how the phase
 * timings of docs/benchmarks.md are measured. Off in every normal build.
 */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno, clock_gettime */

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static struct {
    bool begun;         /* cli_progress_begin ran: phases are timed */
    bool terminal;      /* stderr is a terminal: the line may be shown */
    bool shown;         /* the line is on the terminal now */
    double start_ms;    /* when cli_progress_begin ran */
    double after_ms;    /* show the line from this many ms after start */
#ifdef CLI_PHASE_TIMES
    double phase_ms;    /* when the current phase began */
    char phase[160];    /* its text */
#endif
} progress;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}


void cli_progress_begin(void) {
    progress.begun = true;
    progress.terminal = isatty(fileno(stderr)) == 1;
    progress.shown = false;
    progress.start_ms = now_ms();
    progress.after_ms = 1000.0;
    const char *knob = getenv("APLAN_PROGRESS_AFTER_MS");
    if (knob != NULL && knob[0] != '\0' && strlen(knob) <= 9u && strspn(knob, "0123456789") == strlen(knob))
        progress.after_ms = (double)strtoul(knob, NULL, 10);
#ifdef CLI_PHASE_TIMES
    progress.phase_ms = progress.start_ms;
    progress.phase[0] = '\0';
#endif
}

#ifdef CLI_PHASE_TIMES
/* End the current phase (its line printed) and begin next ("": none, until the next cli_progress). */
static void phase_time(const char *next) {
    double t = now_ms();
    if (progress.phase[0] != '\0') fprintf(stderr, "aplan: phase %s: %.1f ms\n", progress.phase, t - progress.phase_ms);
    progress.phase_ms = t;
    snprintf(progress.phase, sizeof progress.phase, "%s", next);
}
#endif

void cli_progress(const char *format, ...) {
    if (!progress.begun) return;
    char text[160];
    va_list args;
    va_start(args, format);
    (void)vsnprintf(text, sizeof text, format, args);
    va_end(args);
#ifdef CLI_PHASE_TIMES
    if (progress.shown) fputs("\r\033[K", stderr), progress.shown = false;
    phase_time(text);
#endif
    if (!progress.terminal || now_ms() - progress.start_ms < progress.after_ms) return;
    /* \r and erase-to-end-of-line: the new text replaces the old whatever their lengths. */
    fprintf(stderr, "\r\033[K%s: %s...", CLI_PROGRAM, text);
    fflush(stderr);
    progress.shown = true;
}

void cli_progress_note(const char *format, ...) {
    /* No phase line in -DCLI_PHASE_TIMES builds: a note belongs to the phase that is running. */
    if (!progress.begun || !progress.terminal || now_ms() - progress.start_ms < progress.after_ms) return;
    char text[160];
    va_list args;
    va_start(args, format);
    (void)vsnprintf(text, sizeof text, format, args);
    va_end(args);
    fprintf(stderr, "\r\033[K%s: %s...", CLI_PROGRAM, text);
    fflush(stderr);
    progress.shown = true;
}

void cli_progress_end(void) {
#ifdef CLI_PHASE_TIMES
    if (progress.begun && !progress.shown) phase_time("");
#endif
    if (!progress.shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    progress.shown = false;
}

void cli_progress_writing(FILE *out, const char *what) {
    /* The output on the same terminal as the line: clear it, the output would land after it. */
    if (isatty(fileno(out)) == 1) cli_progress_end();
    else cli_progress("writing %s", what);
}

/* aplan_host_progress for cli_session_init: a phase as cli_progress, a note as cli_progress_note. */
static void session_progress(void *state, bool phase, const char *text) {
    (void)state;
    if (phase) cli_progress("%s", text);
    else cli_progress_note("%s", text);
}

void cli_session_init(aplan_host_session *s, const cli_options *o, aplan_host_input *in) {
    aplan_host_session_init(s, &o->host, in);
    s->progress = session_progress;
    s->progress_state = NULL;
}
