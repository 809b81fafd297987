/*
 * The command line as the user sees it: the option parser (one parser for every command, which rejects an option
 * the command does not take rather than ignore it), byte counts, suggestions for mistyped names and the "aplan: ..."
 * error line. Option names and messages are part of the tool's interface (docs/cli.md); the help texts are the
 * command table's (main.c).
 */
#include <ctype.h> /* tolower: the tool never sets a locale, so ASCII's */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"

int cli_flush_stdout(void) {
    /* A write that failed before (output longer than stdio's buffer) left its reason in errno, when nothing since
     * changed it: the printing in between only fails the same way. */
    const bool failed_before = ferror(stdout) != 0;
    const int before = errno;
    errno = 0;
    bool failed = fflush(stdout) != 0;
    int err = errno != 0 ? errno : failed_before ? before : 0;
    failed = ferror(stdout) != 0 || failed;
    if (!failed) return CLI_EXIT_OK;
    /* The reason of the write that failed first is gone when fflush succeeded since; errno then holds a later one. */
    cli_error("cannot write standard output: %s", err != 0 ? strerror(err) : "write error");
    return CLI_EXIT_IO;
}

uint64_t cli_max_input(const cli_options *o) {
    return (o->given & CLI_OPT_MAX_INPUT) ? o->max_input : APLAN_HOST_DEFAULT_MAX_INPUT;
}

void cli_error(const char *format, ...) {
    va_list args;
    va_start(args, format);
    cli_progress_end();
    fprintf(stderr, "%s: ", CLI_PROGRAM);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

int cli_report(int kind, aplan_host_error *e) {
    const char *text = aplan_host_error_text(e);
    if (kind != CLI_EXIT_OK && text != NULL) cli_error("%s", text);
    aplan_host_error_clear(e);
    return kind;
}

/* The end of the message for a value parse_bytes refuses, after "OPTION 'VALUE' ". */
#define NOT_BYTES                                                                                                   \
    "is not a byte count (digits, then optionally K, KB or KiB for 1024, M, MB or MiB for 1048576, G, GB or GiB " \
    "for 1073741824)"

/* The end of the message for a value parse_seconds refuses, after "--time-limit 'VALUE' ". */
#define NOT_SECONDS "is not a number of seconds (a decimal such as 0, 0.5 or 10, at most 1000000)"

/* A non-negative decimal number of seconds, at most APLAN_HOST_MAX_TIME_LIMIT_S, into nanoseconds (digits past the
 * ninth decimal are dropped): digits, or digits, a point and digits (either side may be empty, not both). No sign, no
 * exponent, no spaces, no nan or inf: strtod would take all of them, and the locale's decimal point. */
static bool parse_seconds(const char *s, uint64_t *ns) {
    uint64_t whole = 0, fraction = 0, scale = 1000000000u;
    size_t digits = 0;
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
        whole = whole * 10u + (uint64_t)(*s - '0');
        if (whole > APLAN_HOST_MAX_TIME_LIMIT_S) return false;
    }
    if (*s == '.') {
        for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
            scale /= 10u; /* 0 past the ninth decimal: the digit counts for nothing */
            fraction += (uint64_t)(*s - '0') * scale;
        }
    }
    if (*s != '\0' || digits == 0) return false;
    if (whole == APLAN_HOST_MAX_TIME_LIMIT_S && fraction > 0) return false;
    *ns = whole * 1000000000u + fraction;
    return true;
}

/* Decimal with an optional suffix, in any case: K, KB or KiB (1024), M, MB or MiB (1024 * 1024), G, GB or GiB
 * (1024^3). KB, MB and GB are binary too, as RAM sizes are quoted in datasheets; false on anything else or
 * overflow. */
/* What parse_bytes made of a value. */
typedef enum bytes_parse {
    BYTES_OK,
    BYTES_BAD,      /* not digits and a known suffix */
    BYTES_TOO_LARGE /* digits and a known suffix, but the bytes pass 2^64 - 1 */
} bytes_parse;

/* The end of the message for a value parse_bytes finds too large, after "OPTION 'VALUE' ". */
#define TOO_LARGE "is too large: more than 2^64 - 1 bytes (18446744073709551615)"

static bytes_parse parse_bytes(const char *s, uint64_t *out) {
    if (*s < '0' || *s > '9') return BYTES_BAD;
    uint64_t v = 0;
    bool over = false; /* the digits pass 2^64 - 1: too large, once the suffix is known to be one */
    for (; *s >= '0' && *s <= '9'; s++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10u) over = true;
        else v = v * 10u + d;
    }
    uint64_t scale = 1;
    if (aplan_host_same_name(s, "K") || aplan_host_same_name(s, "KB") || aplan_host_same_name(s, "KiB")) scale = 1024u;
    else if (aplan_host_same_name(s, "M") || aplan_host_same_name(s, "MB") || aplan_host_same_name(s, "MiB"))
        scale = 1024u * 1024u;
    else if (aplan_host_same_name(s, "G") || aplan_host_same_name(s, "GB") || aplan_host_same_name(s, "GiB"))
        scale = 1024u * 1024u * 1024u;
    else if (*s != '\0') return BYTES_BAD;
    if (over || v > UINT64_MAX / scale) return BYTES_TOO_LARGE;
    *out = v * scale;
    return BYTES_OK;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Did you mean                                                                                                  */

/* Whether name holds part (case aside) as whole '-'-separated pieces: "m4" and "cortex-m4" are in cortex-m4, "m" and
 * "cortex-m5" are not. */
static bool holds_name(const char *name, const char *part) {
    size_t n = strlen(name), m = strlen(part);
    for (size_t i = 0; m > 0 && i + m <= n; i++) {
        if ((i > 0 && name[i - 1u] != '-') || (i + m < n && name[i + m] != '-')) continue;
        size_t k = 0;
        while (k < m && tolower((unsigned char)name[i + k]) == tolower((unsigned char)part[k])) k++;
        if (k == m) return true;
    }
    return false;
}

/* The preset to suggest for the unknown target name given: among the presets whose names hold it (holds_name: "m4"
 * is part of cortex-m4, "esp32" of esp32-s3 and esp32-s3-psram) the nearest by edit distance, else the nearest of
 * all that takes at most half its name's length in edits ("stm32" is stm32h743; "z80" is like none): there are few
 * presets, and a near one is the likeliest meaning. NULL when none is, when two are equally near (cortex-m5: cortex-m4
 * or cortex-m7; a guess between them helps no one) or given is longer than APLAN_HOST_SUGGEST_MAX. */
static const char *nearest_target(const char *given) {
    if (strlen(given) > APLAN_HOST_SUGGEST_MAX) return NULL;
    for (int pass = 0; pass < 2; pass++) { /* 0: the presets whose names hold it; 1: all */
        const char *best = NULL;
        size_t distance = SIZE_MAX, ties = 0;
        for (size_t k = 0; k < aplan_host_target_count(); k++) {
            const char *name = aplan_host_target_at(k)->name;
            if (pass == 0 && !holds_name(name, given)) continue;
            size_t d = aplan_host_edit_distance(given, name);
            if (pass == 1 && 2u * d > strlen(name)) continue; /* more than half of it to change: no likeness */
            if (d < distance) best = name, distance = d, ties = 0;
            else if (d == distance) ties++;
        }
        if (best != NULL) return ties == 0 ? best : NULL;
    }
    return NULL;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Options                                                                                                       */

/* A C identifier that cannot be reserved: a letter, then letters, digits and underscores. */
static bool c_identifier(const char *s) {
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) return false;
    for (s++; *s != '\0'; s++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    }
    return true;
}

/* Every option: its long name, its one-letter form (0: none), its CLI_OPT_* bit (0 for --help, which every command
 * takes) and whether it takes a value. */
typedef struct option_spec {
    const char *name;
    char letter;
    unsigned bit;
    bool takes_value;
} option_spec;

static const option_spec option_specs[] = {
    {"--help", 'h', 0, false},
    {"--strategy", 's', CLI_OPT_STRATEGY, true},
    {"--align", 'a', CLI_OPT_ALIGN, true},
    {"--round-sizes", 0, CLI_OPT_ROUND, false},
    {"--no-round-sizes", 0, CLI_OPT_ROUND, false},
    {"--capacity", 0, CLI_OPT_CAPACITY, true},
    {"--target", 0, CLI_OPT_TARGET, true},
    {"--format", 'f', CLI_OPT_FORMAT, true},
    {"--output", 'o', CLI_OPT_OUTPUT, true},
    {"--allow-alias", 0, CLI_OPT_ALIAS, false},
    {"--graph", 0, CLI_OPT_GRAPH, false},
    {"--force", 0, CLI_OPT_FORCE, false},
    {"--replan", 0, CLI_OPT_REPLAN, false},
    {"--name", 0, CLI_OPT_NAME, true},
    {"--max-input-size", 0, CLI_OPT_MAX_INPUT, true},
    {"--time-limit", 0, CLI_OPT_TIME_LIMIT, true},
    {"--abi", 0, CLI_OPT_ABI, true},
    {"--kernels", 0, CLI_OPT_KERNELS, true},
    {"--region", 0, CLI_OPT_REGION, true},
};

/* --region NAME:SIZE[:ALIGN] into spec: NAME 1 to 31 of [A-Za-z0-9_.-] (it is written into CSV, C comments and
 * JSON as it is), SIZE a byte count as for --capacity, ALIGN a power of two. false with why filled. */
static bool parse_region(const char *value, aplan_host_region_spec *spec, char *why, size_t why_size) {
    const char *colon = strchr(value, ':');
    size_t n = colon != NULL ? (size_t)(colon - value) : strlen(value);
    if (colon == NULL) {
        snprintf(why, why_size, "is not NAME:SIZE[:ALIGN] (for example sram:128K or psram:8M:32)");
        return false;
    }
    if (n == 0 || n >= sizeof spec->name) {
        snprintf(why, why_size, "has a name of %zu characters (1 to %u)", n, APLAN_HOST_REGION_NAME - 1u);
        return false;
    }
    for (size_t k = 0; k < n; k++) {
        const char c = value[k];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '-')) {
            snprintf(why, why_size, "has '%c' in its name (letters, digits, '_', '.', '-')", c);
            return false;
        }
    }
    memcpy(spec->name, value, n);
    spec->name[n] = '\0';
    char size[64];
    const char *rest = colon + 1, *second = strchr(rest, ':');
    size_t m = second != NULL ? (size_t)(second - rest) : strlen(rest);
    if (m >= sizeof size) m = sizeof size - 1u;
    memcpy(size, rest, m);
    size[m] = '\0';
    bytes_parse got = parse_bytes(size, &spec->size);
    if (got != BYTES_OK) {
        snprintf(why, why_size, "has a size that %s",
                 got == BYTES_TOO_LARGE ? TOO_LARGE : NOT_BYTES);
        return false;
    }
    spec->align = 0;
    if (second != NULL && (parse_bytes(second + 1, &spec->align) != BYTES_OK || spec->align == 0 ||
                           (spec->align & (spec->align - 1u)) != 0)) {
        snprintf(why, why_size, "has an alignment that is not a power of two");
        return false;
    }
    return true;
}

/* The spec of "-x" or "--long"; NULL when there is none. */
static const option_spec *find_option(const char *name) {
    for (size_t k = 0; k < sizeof option_specs / sizeof option_specs[0]; k++) {
        const option_spec *spec = &option_specs[k];
        if (strcmp(name, spec->name) == 0 || (spec->letter != 0 && name[0] == '-' && name[1] == spec->letter &&
                                              name[2] == '\0'))
            return spec;
    }
    return NULL;
}

int cli_parse_options(const cli_command *cmd, int argc, char **argv, cli_options *o) {
    bool only_args = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
            if (o->arg_count >= sizeof o->args / sizeof o->args[0]) {
                cli_error("%s: too many arguments (usage: %s)", cmd->name, cmd->usage);
                return CLI_EXIT_USAGE;
            }
            o->args[o->arg_count++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_args = true;
            continue;
        }
        /* Split --name=value; short options take their value from the next word or the rest of the word. */
        char name[32];
        const char *value = NULL;
        const char *eq = strchr(a, '=');
        if (a[1] == '-' && eq != NULL) {
            size_t n = (size_t)(eq - a);
            if (n >= sizeof name) n = sizeof name - 1u;
            memcpy(name, a, n);
            name[n] = '\0';
            value = eq + 1;
        } else if (a[1] != '-' && a[2] != '\0') {
            name[0] = '-';
            name[1] = a[1];
            name[2] = '\0';
            value = a + 2;
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
        const option_spec *spec = find_option(name);
        if (spec == NULL) {
            aplan_host_suggestion near;
            aplan_host_suggest_init(&near, name);
            for (size_t k = 0; name[1] == '-' && k < sizeof option_specs / sizeof option_specs[0]; k++)
                aplan_host_suggest_consider(&near, option_specs[k].name);
            char hint[80];
            aplan_host_suggest_text(&near, hint, sizeof hint);
            cli_error("%s: unknown option '%s' (%ssee `aplan %s --help`)", cmd->name, a, hint, cmd->name);
            return CLI_EXIT_USAGE;
        }
        if (spec->bit == 0) {
            o->help = true;
            continue;
        }
        unsigned bit = spec->bit;
        bool takes_value = spec->takes_value;
        switch (bit) {
        case CLI_OPT_ROUND: o->host.round = strcmp(spec->name, "--round-sizes") == 0; break;
        case CLI_OPT_ALIAS: o->host.alias = true; break;
        case CLI_OPT_GRAPH: o->graph = true; break;
        case CLI_OPT_FORCE: o->force = true; break;
        case CLI_OPT_REPLAN: o->replan = true; break;
        default: break;
        }
        if ((cmd->accepts & bit) == 0) {
            cli_error("%s: option '%s' does not apply to this command", cmd->name, name);
            return CLI_EXIT_USAGE;
        }
        if (!takes_value) {
            if (value != NULL) {
                cli_error("%s: option '%s' takes no value", cmd->name, name);
                return CLI_EXIT_USAGE;
            }
            o->given |= bit;
            continue;
        }
        if (value == NULL) {
            if (i + 1 >= argc) {
                cli_error("%s: option '%s' needs a value", cmd->name, name);
                return CLI_EXIT_USAGE;
            }
            value = argv[++i];
        }
        o->given |= bit;
        switch (bit) {
        case CLI_OPT_STRATEGY: /* checked once every option is read: --region names other strategies */
            o->host.strategies = value;
            break;
        case CLI_OPT_REGION: {
            char why[200];
            if (o->host.region_count == APLAN_HOST_MAX_REGIONS) {
                cli_error("%s: more than %u --region", cmd->name, APLAN_HOST_MAX_REGIONS);
                return CLI_EXIT_USAGE;
            }
            aplan_host_region_spec *given = &o->host.regions[o->host.region_count];
            if (!parse_region(value, given, why, sizeof why)) {
                cli_error("%s: --region '%s' %s", cmd->name, value, why);
                return CLI_EXIT_USAGE;
            }
            for (size_t k = 0; k < o->host.region_count; k++) {
                if (aplan_host_same_name(o->host.regions[k].name, given->name)) {
                    cli_error("%s: --region '%s': region %s is given twice", cmd->name, value, given->name);
                    return CLI_EXIT_USAGE;
                }
            }
            o->host.region_count++;
            break;
        }
        case CLI_OPT_ALIGN:
            if (parse_bytes(value, &o->host.align) != BYTES_OK || o->host.align == 0 ||
                (o->host.align & (o->host.align - 1u)) != 0) {
                cli_error("%s: --align '%s' is not a power of two", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            break;
        case CLI_OPT_CAPACITY:
            switch (parse_bytes(value, &o->host.capacity)) {
            case BYTES_OK: break;
            case BYTES_BAD: cli_error("%s: --capacity '%s' " NOT_BYTES, cmd->name, value); return CLI_EXIT_USAGE;
            case BYTES_TOO_LARGE:
                cli_error("%s: --capacity '%s' " TOO_LARGE "; at most 18446744073709551614", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            if (o->host.capacity == APLAN_UNLIMITED) { /* the library's "no capacity": said, not taken silently */
                cli_error("%s: --capacity '%s' is 2^64 - 1, which means no capacity: leave --capacity out, or give at "
                          "most 18446744073709551614", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            break;
        case CLI_OPT_MAX_INPUT:
            switch (parse_bytes(value, &o->max_input)) {
            case BYTES_OK: break;
            case BYTES_BAD: cli_error("%s: --max-input-size '%s' " NOT_BYTES, cmd->name, value); return CLI_EXIT_USAGE;
            case BYTES_TOO_LARGE:
                cli_error("%s: --max-input-size '%s' " TOO_LARGE, cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            break;
        case CLI_OPT_TIME_LIMIT:
            if (!parse_seconds(value, &o->host.time_limit_ns)) {
                cli_error("%s: --time-limit '%s' " NOT_SECONDS, cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            break;
        case CLI_OPT_ABI:
            if (strcmp(value, "32") != 0 && strcmp(value, "64") != 0) {
                cli_error("%s: --abi '%s' is not 32 or 64 (the target's pointer width in bits)", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            o->host.abi = value[0] == '3' ? APLAN_TFLM_ABI_32 : APLAN_TFLM_ABI_64;
            break;
        case CLI_OPT_KERNELS:
            if (aplan_host_same_name(value, "reference")) {
                o->host.kernels = APLAN_TFLM_KERNELS_REFERENCE;
            } else if (aplan_host_same_name(value, "cmsis-nn")) {
                o->host.kernels = APLAN_TFLM_KERNELS_CMSIS_NN;
            } else {
                cli_error("%s: --kernels '%s' is not reference or cmsis-nn", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            break;
        case CLI_OPT_TARGET: {
            const aplan_host_target *t = aplan_host_target_find(value);
            if (t == NULL) {
                const char *near = nearest_target(value);
                char hint[80] = "";
                if (near != NULL) snprintf(hint, sizeof hint, "did you mean '%s'? ", near);
                cli_error("%s: unknown target '%s' (%ssee `aplan targets`)", cmd->name, value, hint);
                return CLI_EXIT_USAGE;
            }
            o->host.target = t->name; /* the preset's own spelling: Cortex-M4 is cortex-m4 */
            break;
        }
        case CLI_OPT_FORMAT: {
            bool found = false;
            aplan_host_suggestion near;
            aplan_host_suggest_init(&near, value);
            for (size_t f = 0; f < cli_format_count; f++) {
                if (aplan_host_same_name(value, cli_formats[f].name)) {
                    o->format = f;
                    found = true;
                }
                aplan_host_suggest_consider(&near, cli_formats[f].name);
            }
            if (!found) {
                char hint[80], names[160];
                aplan_host_suggest_text(&near, hint, sizeof hint);
                cli_format_names(names, sizeof names, 0, false);
                cli_error("%s: unknown format '%s' (%s%s)", cmd->name, value, hint, names);
                return CLI_EXIT_USAGE;
            }
            break;
        }
        case CLI_OPT_OUTPUT:
            o->output = value;
            break;
        case CLI_OPT_NAME:
            if (!c_identifier(value)) {
                cli_error("%s: --name '%s' is not a C identifier (a letter, then letters, digits, '_')", cmd->name,
                          value);
                return CLI_EXIT_USAGE;
            }
            o->host.name = value;
            break;
        default:
            break;
        }
    }
    /* What the host layer takes was given exactly when its option was. */
    static const unsigned host_bits[][2] = {{CLI_OPT_ALIGN, APLAN_HOST_SET_ALIGN},
                                            {CLI_OPT_ROUND, APLAN_HOST_SET_ROUND},
                                            {CLI_OPT_CAPACITY, APLAN_HOST_SET_CAPACITY},
                                            {CLI_OPT_TIME_LIMIT, APLAN_HOST_SET_TIME_LIMIT},
                                            {CLI_OPT_ABI, APLAN_HOST_SET_ABI},
                                            {CLI_OPT_KERNELS, APLAN_HOST_SET_KERNELS}};
    o->host.given = 0;
    for (size_t k = 0; k < sizeof host_bits / sizeof host_bits[0]; k++)
        if (o->given & host_bits[k][0]) o->host.given |= host_bits[k][1];
    if (o->help) return CLI_EXIT_OK;
    if ((o->given & CLI_OPT_REGION) && (o->given & CLI_OPT_CAPACITY)) {
        cli_error("%s: --capacity and --region: with regions each has its own (NAME:SIZE)", cmd->name);
        return CLI_EXIT_USAGE;
    }
    aplan_host_error e = {0};
    if (o->host.strategies != NULL &&
        cli_report(aplan_host_option_regions(&o->host, NULL) > 0
                       ? aplan_host_check_region_strategy_list(cmd->name, o->host.strategies, &e)
                       : aplan_host_check_strategy_list(cmd->name, o->host.strategies, &e),
                   &e) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    /* -o FILE chooses the format by its extension (cli_format.extension) when -f is not given; an explicit -f wins,
     * with a warning when the extension names another format. Any other extension keeps the default, the table. */
    if (o->output != NULL && (cmd->accepts & CLI_OPT_FORMAT) != 0) {
        size_t f = cli_format_of_path(o->output);
        if ((o->given & CLI_OPT_FORMAT) == 0 && f != SIZE_MAX) {
            o->format = f;
        } else if (f != SIZE_MAX && f != o->format) {
            fprintf(stderr, "%s: warning: %s: -o %s has the extension of -f %s; writing -f %s as given\n",
                    CLI_PROGRAM, cmd->name, o->output, cli_formats[f].name, cli_formats[o->format].name);
        }
    }
    if ((cmd->accepts & CLI_OPT_FORMAT) != 0 && cli_check_region_c_names(cmd->name, o) != CLI_EXIT_OK)
        return CLI_EXIT_USAGE;
    /* An option that only some formats take (cli_format.options) is a usage error with any other. */
    unsigned format_only = 0;
    for (size_t f = 0; f < cli_format_count; f++) format_only |= cli_formats[f].options;
    unsigned refused = o->given & format_only & ~cli_formats[o->format].options;
    for (size_t k = 0; refused != 0 && k < sizeof option_specs / sizeof option_specs[0]; k++) {
        if ((option_specs[k].bit & refused) == 0) continue;
        char names[160];
        cli_format_names(names, sizeof names, option_specs[k].bit, false);
        cli_error("%s: %s applies to -f %s only", cmd->name, option_specs[k].name, names);
        return CLI_EXIT_USAGE;
    }
    if (o->arg_count < cmd->min_args || o->arg_count > cmd->max_args) {
        cli_error("%s: expected %zu argument%s, got %zu (usage: %s)", cmd->name, cmd->max_args,
                  cmd->max_args == 1 ? "" : "s", o->arg_count, cmd->usage);
        return CLI_EXIT_USAGE;
    }
    /* Writing over an input is what embed has always refused without --force; every command with -o does now. */
    for (size_t k = 0; o->output != NULL && !o->force && k < o->arg_count; k++) {
        if (strcmp(o->args[k], "-") != 0 && cli_same_file(o->args[k], o->output)) {
            cli_error("%s: %s is the input: refusing to overwrite it (use --force to replace it)", cmd->name,
                      o->output);
            return CLI_EXIT_USAGE;
        }
    }
    /* Standard input can be read once: two arguments that are both "-" (verify - -) would read it twice. */
    for (size_t k = 0; k < o->arg_count; k++) {
        for (size_t j = k + 1u; j < o->arg_count; j++) {
            if (strcmp(o->args[k], "-") == 0 && strcmp(o->args[j], "-") == 0) {
                cli_error("%s: standard input ('-') given twice: it can be read once; give one of them as a file",
                          cmd->name);
                return CLI_EXIT_USAGE;
            }
        }
    }
    return CLI_EXIT_OK;
}
