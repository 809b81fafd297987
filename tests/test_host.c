/*
 * The host layer's contract as a front-end other than the CLI meets it (src/host/host.h): errors come back as values
 * with the exit code's kind and exactly the text the CLI prints after "aplan: " (the same messages
 * tests/cli/cli_test.sh asserts on the tool), settings come in as a plain aplan_host_options, and progress goes out
 * through the session's callback. Links the host layer's static library beside the shared library.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "aplan/strategies.h"
#include "host/host.h"

/* The error value: set, append, its text, clear. */
static void test_error_value(void **state) {
    (void)state;
    aplan_host_error e = {0};
    assert_null(aplan_host_error_text(&e));
    assert_int_equal(aplan_host_error_set(&e, APLAN_HOST_BAD_INPUT, "%s: line %u", "t.csv", 7u), APLAN_HOST_BAD_INPUT);
    assert_int_equal(e.kind, APLAN_HOST_BAD_INPUT);
    aplan_host_error_append(&e, "; %s", "more");
    assert_string_equal(aplan_host_error_text(&e), "t.csv: line 7; more");
    /* set replaces, whatever was there */
    aplan_host_error_set(&e, APLAN_HOST_USAGE, "again");
    assert_string_equal(aplan_host_error_text(&e), "again");
    aplan_host_error_clear(&e);
    assert_int_equal(e.kind, APLAN_HOST_OK);
    assert_null(e.message);
    assert_null(aplan_host_error_text(&e));
    /* a message that could not be allocated still says something */
    e.oom = true;
    assert_string_equal(aplan_host_error_text(&e), "out of memory");
    aplan_host_error_clear(&e);
}

/* -s lists: the kind (usage) and the messages the CLI prints for them. */
static void test_strategy_list_errors(void **state) {
    (void)state;
    aplan_host_error e = {0};
    assert_int_equal(aplan_host_check_strategy_list("plan", "", &e), APLAN_HOST_USAGE);
    assert_string_equal(aplan_host_error_text(&e),
                        "plan: empty strategy list (-s NAME[,NAME...], all or auto; see `aplan list`)");
    assert_int_equal(aplan_host_check_strategy_list("plan", ",x", &e), APLAN_HOST_USAGE);
    assert_string_equal(aplan_host_error_text(&e), "plan: empty or overlong strategy name in ',x'");
    char list[80];
    snprintf(list, sizeof list, "%s,", aplan_strategy_at(0)->name);
    assert_int_equal(aplan_host_check_strategy_list("bound", list, &e), APLAN_HOST_USAGE);
    char want[200];
    snprintf(want, sizeof want, "bound: empty strategy name in '%s'", list);
    assert_string_equal(aplan_host_error_text(&e), want);
    /* An unknown name lists every built-in strategy; a name past 48 characters gets no did-you-mean. */
    const char *odd = "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz";
    assert_int_equal(aplan_host_check_strategy_list("plan", odd, &e), APLAN_HOST_USAGE);
    char known[2048];
    int at = snprintf(known, sizeof known, "plan: unknown strategy '%s'; known:", odd);
    for (size_t i = 0; i < aplan_strategy_count(); i++)
        at += snprintf(known + at, sizeof known - (size_t)at, " %s,", aplan_strategy_at(i)->name);
    snprintf(known + at, sizeof known - (size_t)at, " all, auto");
    assert_string_equal(aplan_host_error_text(&e), known);
    /* all and auto pass, and a good list leaves no error */
    aplan_host_error_clear(&e);
    assert_int_equal(aplan_host_check_strategy_list("plan", "auto", &e), APLAN_HOST_OK);
    assert_int_equal(aplan_host_check_strategy_list("plan", aplan_strategy_at(0)->name, &e), APLAN_HOST_OK);
    assert_null(aplan_host_error_text(&e));
}

/* -f c with regions: the macro clashes, as `aplan example --region a:... --region a_size:... -f c` says them. */
static void test_region_c_names(void **state) {
    (void)state;
    aplan_host_options o;
    memset(&o, 0, sizeof o);
    o.region_count = 2;
    snprintf(o.regions[0].name, sizeof o.regions[0].name, "a");
    snprintf(o.regions[1].name, sizeof o.regions[1].name, "a_size");
    o.regions[0].size = o.regions[1].size = 100000;
    aplan_host_error e = {0};
    assert_int_equal(aplan_host_check_region_c_names("example", &o, &e), APLAN_HOST_USAGE);
    assert_string_equal(aplan_host_error_text(&e),
                        "example: -f c: regions a and a_size would both define APLAN_REGION_A_SIZE (the size of a, "
                        "the index of a_size); rename one (in a macro, letters and digits are kept, case aside, and "
                        "any other character is '_')");
    /* the prefix is the settings' name, upper-cased */
    o.name = "net";
    snprintf(o.regions[1].name, sizeof o.regions[1].name, "count");
    o.region_count = 1;
    memcpy(&o.regions[0], &o.regions[1], sizeof o.regions[0]);
    assert_int_equal(aplan_host_check_region_c_names("plan", &o, &e), APLAN_HOST_USAGE);
    assert_string_equal(aplan_host_error_text(&e),
                        "plan: -f c: region count would define NET_REGION_COUNT, which the header defines as the "
                        "number of regions; rename the region (in a macro, letters and digits are kept, case aside, "
                        "and any other character is '_')");
    aplan_host_error_clear(&e);
}

/* A session over bytes: fixed buffers that clash are an input mistake (kind BAD_INPUT, the CLI's words), unless the
 * settings allow aliasing; the bound is the session's. */
static void test_session_fixed_clash(void **state) {
    (void)state;
    static const char csv[] = "id,lower,upper,size,offset\na,0,2,16,0\nb,0,2,16,8\n";
    aplan_host_input in;
    memset(&in, 0, sizeof in);
    char message[256];
    assert_int_equal(aplan_host_load_bytes("t.csv", csv, sizeof csv - 1u, &in, message, sizeof message),
                     APLAN_HOST_OK);
    aplan_host_options o;
    memset(&o, 0, sizeof o);
    aplan_host_session s;
    aplan_host_session_init(&s, &o, &in);
    aplan_host_error e = {0};
    assert_int_equal(aplan_host_check_problem(&s, &e), APLAN_HOST_OK);
    assert_int_equal(aplan_host_check_fixed(&s, &e), APLAN_HOST_BAD_INPUT);
    assert_string_equal(aplan_host_error_text(&e),
                        "t.csv: fixed buffers 'a' (line 2) and 'b' (line 3) share bytes while both are live (use "
                        "--allow-alias if the offline plan shares them on purpose)");
    aplan_host_error_clear(&e);
    aplan_host_session_free(&s);
    o.alias = true;
    aplan_host_session_init(&s, &o, &in);
    assert_int_equal(aplan_host_check_fixed(&s, &e), APLAN_HOST_OK);
    assert_int_equal(aplan_host_compute_bound(&s, &e), APLAN_HOST_OK);
    assert_int_equal(s.bound, 24); /* as `aplan bound --allow-alias`: the fixed pair covers bytes [0, 24) */
    assert_null(aplan_host_error_text(&e));
    aplan_host_session_free(&s);
    aplan_host_input_free(&in);
}

/* The session's progress callback hears each phase, with its text; none set is silence. */
typedef struct heard {
    int phases, notes;
    char last[160];
} heard;

static void listen(void *state, bool phase, const char *text) {
    heard *h = state;
    if (phase) h->phases++;
    else h->notes++;
    snprintf(h->last, sizeof h->last, "%s", text);
}

static void test_progress_callback(void **state) {
    (void)state;
    aplan_host_input in;
    memset(&in, 0, sizeof in);
    assert_int_equal(aplan_host_example(&in), APLAN_HOST_OK);
    aplan_host_options o;
    memset(&o, 0, sizeof o);
    aplan_host_session s;
    aplan_host_session_init(&s, &o, &in);
    aplan_host_progress_say(&s, true, "nobody %d", 1); /* no callback: nothing happens */
    heard h = {0, 0, ""};
    s.progress = listen;
    s.progress_state = &h;
    aplan_host_error e = {0};
    assert_int_equal(aplan_host_compute_bound(&s, &e), APLAN_HOST_OK);
    assert_int_equal(aplan_host_select_strategies(aplan_strategy_at(0)->name, &s, &e), APLAN_HOST_OK);
    assert_int_equal(s.run_count, 1);
    aplan_host_run_one(&s, &s.runs[0]); /* it allocates the run's offsets, which aplan_host_session_free frees */
    /* "planning NAME (1 of 1)", then "verifying NAME (1 of 1)" when it planned */
    char want[160];
    snprintf(want, sizeof want, "%s %s (1 of 1)", s.runs[0].planned ? "verifying" : "planning",
             aplan_strategy_at(0)->name);
    assert_int_equal(h.phases, s.runs[0].planned ? 2 : 1);
    assert_string_equal(h.last, want);
    aplan_host_session_free(&s);
    aplan_host_input_free(&in);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_value),
        cmocka_unit_test(test_strategy_list_errors),
        cmocka_unit_test(test_region_c_names),
        cmocka_unit_test(test_session_fixed_clash),
        cmocka_unit_test(test_progress_callback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
