/*
 * Where a result is written: standard output, a device written in place, or a file replaced atomically (never seen
 * half-written: a temporary file beside it, synced and renamed over it).
 */
#define _XOPEN_SOURCE 700 /* mkstemp, fsync, fchmod, fileno, umask, lstat, realpath */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

bool cli_same_file(const char *a, const char *b) {
    if (strcmp(a, b) == 0) return true;
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cli_write_file_atomic(const char *path, cli_writer write, void *state) {
    /* "<dir>/.<name>.XXXXXX": hidden, and in the same directory so that rename() replaces path in one step. */
    const char *slash = strrchr(path, '/');
    size_t dir = slash != NULL ? (size_t)(slash - path) + 1u : 0u;
    size_t n = strlen(path) + 16u;
    char *tmp = malloc(n);
    if (tmp == NULL) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    snprintf(tmp, n, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cli_error("cannot create a temporary file beside %s: %s", path, strerror(errno));
        free(tmp);
        return CLI_EXIT_IO;
    }
    /* mkstemp makes the file 0600; give it what the replaced file had, or what a new file would get. */
    struct stat old;
    mode_t mode;
    if (stat(path, &old) == 0) {
        mode = old.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    (void)fchmod(fd, mode); /* best effort: some file systems have no modes */
    /* And its owner, which only a privileged user can give away: best effort too. */
    if (stat(path, &old) == 0 && (old.st_uid != geteuid() || old.st_gid != getegid()))
        (void)fchown(fd, old.st_uid, old.st_gid);
    int rc = CLI_EXIT_OK;
    int err = 0;
    const char *failed = "cannot write";
    FILE *out = fdopen(fd, "wb");
    if (out == NULL) {
        err = errno;
        close(fd);
        rc = CLI_EXIT_IO;
    } else {
        rc = write(out, state);
        if (rc == CLI_EXIT_IO) err = errno;
        if (rc == CLI_EXIT_OK && (fflush(out) != 0 || ferror(out) != 0)) err = errno, rc = CLI_EXIT_IO;
        /* On disk before it replaces anything; EINVAL: a file that cannot be synced (nothing to wait for). */
        if (rc == CLI_EXIT_OK && fsync(fileno(out)) != 0 && errno != EINVAL) err = errno, rc = CLI_EXIT_IO;
        if (fclose(out) != 0 && rc == CLI_EXIT_OK) err = errno, rc = CLI_EXIT_IO;
        if (rc == CLI_EXIT_OK && rename(tmp, path) != 0) err = errno, rc = CLI_EXIT_IO, failed = "cannot replace";
    }
    if (rc != CLI_EXIT_OK) {
        if (rc == CLI_EXIT_IO) cli_error("%s %s: %s", failed, path, err != 0 ? strerror(err) : "write error");
        (void)unlink(tmp);
    }
    free(tmp);
    return rc;
}

int cli_write_output(const char *path, cli_writer write, void *state) {
    if (path == NULL) {
        int rc = write(stdout, state);
        if (rc == CLI_EXIT_IO) {
            cli_error("cannot write standard output: %s", errno != 0 ? strerror(errno) : "write error");
            return rc;
        }
        return rc == CLI_EXIT_OK ? cli_flush_stdout() : rc;
    }
    /* A link is followed, so that the file it names is replaced and the link stays (a dangling one is replaced); a
     * link that cannot be followed for another reason (a loop) is an error, not a file to put in its place. */
    char *target = NULL;
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        errno = 0;
        target = realpath(path, NULL);
        if (target == NULL && errno != ENOENT) {
            cli_error("cannot write %s: it is a symbolic link that cannot be followed: %s", path, strerror(errno));
            return CLI_EXIT_IO;
        }
    }
    const char *where = target != NULL ? target : path;
    int rc;
    if (stat(where, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("cannot write %s: it is a folder (give a file name)", path);
        free(target);
        return CLI_EXIT_IO;
    }
    /* A file the user may not write is not replaced, though the folder would let rename() do it. */
    if (stat(where, &st) == 0 && S_ISREG(st.st_mode) && access(where, W_OK) != 0) {
        cli_error("cannot write %s: %s (it is not replaced)", path, strerror(errno));
        free(target);
        return CLI_EXIT_IO;
    }
    if (stat(where, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        /* A device or a FIFO: written in place. Renaming a new file over it would replace /dev/null itself. */
        FILE *out = fopen(where, "wb");
        if (out == NULL) {
            cli_error("cannot open %s for writing: %s", path, strerror(errno));
            free(target);
            return CLI_EXIT_IO;
        }
        errno = 0;
        rc = write(out, state);
        int err = errno;
        if (rc == CLI_EXIT_OK && (fflush(out) != 0 || ferror(out) != 0)) err = errno, rc = CLI_EXIT_IO;
        if (fclose(out) != 0 && rc == CLI_EXIT_OK) err = errno, rc = CLI_EXIT_IO;
        if (rc == CLI_EXIT_IO) cli_error("cannot write %s: %s", path, err != 0 ? strerror(err) : "write error");
    } else {
        /* A regular file or a new one: replaced whole or not at all. */
        rc = cli_write_file_atomic(where, write, state);
    }
    free(target);
    return rc;
}
