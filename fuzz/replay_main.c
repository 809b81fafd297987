/*
 * The driver for builds without a fuzzing engine (fuzzing_engine=none): runs LLVMFuzzerTestOneInput on files, on
 * every file of a directory, or on seeded random inputs, so corpora replay as ordinary tests and a harness can be
 * exercised anywhere.
 *
 *   replay FILE|DIR...                 run each file (a directory: each regular file in it, sorted)
 *   replay --random N [--seed S] [--max-len L]
 *                                      N random inputs of up to L bytes (default 512) from seed S (default 1)
 * Exit status 0 when every input ran; a failing harness aborts, which is the test failure.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return 1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *data = malloc(cap);
    for (;;) {
        if (data == NULL) abort();
        const size_t got = fread(data + len, 1, cap - len, f); /* counts bytes: short reads are not lost */
        len += got;
        if (got == 0) break;
        if (len == cap) data = realloc(data, cap *= 2);
    }
    const int failed = ferror(f);
    fclose(f);
    if (failed) {
        fprintf(stderr, "%s: read error\n", path);
        free(data);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return 0;
}

static int compare(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (d == NULL) return run_file(dir);
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        names = realloc(names, (n + 1) * sizeof *names);
        if (names == NULL) abort();
        const size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (names[n] == NULL) abort();
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) rc |= run_file(names[i]);
        free(names[i]);
    }
    free(names);
    printf("%s: %zu inputs\n", dir, n);
    return rc;
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "--random") == 0) {
        const unsigned long long runs = strtoull(argv[2], NULL, 10);
        uint64_t state = 1;
        size_t max_len = 512;
        for (int i = 3; i + 1 < argc; i += 2) {
            if (strcmp(argv[i], "--seed") == 0) state = strtoull(argv[i + 1], NULL, 10) | 1u;
            if (strcmp(argv[i], "--max-len") == 0) max_len = (size_t)strtoull(argv[i + 1], NULL, 10);
        }
        uint8_t *buf = malloc(max_len + 1);
        if (buf == NULL) abort();
        for (unsigned long long r = 0; r < runs; r++) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            const size_t len = (size_t)(state % (max_len + 1));
            for (size_t i = 0; i < len; i++) {
                state ^= state << 13, state ^= state >> 7, state ^= state << 17;
                buf[i] = (uint8_t)(state >> 24);
            }
            LLVMFuzzerTestOneInput(buf, len);
        }
        free(buf);
        printf("%llu random inputs\n", runs);
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR... | --random N [--seed S] [--max-len L]\n", argv[0]);
        return 2;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++) rc |= run_dir(argv[i]);
    return rc;
}
