/*
 * Where a result is written: standard output, a device written in place, or a file replaced atomically (never seen
 * half-written: a temporary file beside it, synced and renamed over it).
 *
 * Signals (docs/cli.md, "Signals and limits"): SIGXFSZ is ignored from the start (cli_ignore_file_size_signal), so a
 * file size limit fails the write with EFBIG, reported as any failed write (exit 6) and cleaned up. While a temporary
 * file exists under a name, the signals that end a process by default and can be caught (SIGHUP, SIGINT, SIGQUIT,
 * SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF) remove it, then end the process by the
 * same signal, its default action restored; a signal that was ignored when aplan started stays ignored. Where the
 * system has unnamed temporary files (Linux's O_TMPFILE, with /proc to link them), the file has no name until it is
 * complete: it is linked under a hidden name and renamed over the output in one stretch with those signals blocked,
 * so even SIGKILL leaves nothing but in that stretch (two system calls).
 */
#define _GNU_SOURCE /* O_TMPFILE where the C library has it; else the POSIX calls below (mkstemp, linkat, ...) */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

bool cli_same_file(const char *a, const char *b) {
    if (strcmp(a, b) == 0) return true;
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void cli_ignore_file_size_signal(void) {
#ifdef SIGXFSZ
    (void)signal(SIGXFSZ, SIG_IGN);
#endif
}

/* The signals that end a process by default and can be caught, whose arrival while a named temporary file exists
 * removes it first. */
static const int cleanup_signals[] = {
    SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
#ifdef SIGXCPU
    SIGXCPU,
#endif
#ifdef SIGVTALRM
    SIGVTALRM,
#endif
#ifdef SIGPROF
    SIGPROF,
#endif
};
#define CLEANUP_SIGNALS (sizeof cleanup_signals / sizeof cleanup_signals[0])

/* The temporary file's path while it exists under that name (NULL otherwise): set and cleared with the signals
 * blocked, read by the handler, which may only make async-signal-safe calls. */
static const char *volatile pending_temp;

/* The handler: remove the temporary file, then end the process by the same signal (its default action, unblocked),
 * as if it had not been caught; the exit status says which signal. */
static void remove_temp_and_die(int sig) {
    const char *temp = pending_temp;
    if (temp != NULL) (void)unlink(temp);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    (void)sigaction(sig, &dfl, NULL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    (void)sigprocmask(SIG_UNBLOCK, &one, NULL);
    (void)raise(sig);
    _exit(128 + sig); /* not reached: the default action of each of these signals ends the process */
}

/* The handlers a write replaced, to restore after it. */
typedef struct signal_guard {
    struct sigaction old[CLEANUP_SIGNALS];
    bool installed[CLEANUP_SIGNALS];
} signal_guard;

static void block_cleanup_signals(sigset_t *old) {
    sigset_t set;
    sigemptyset(&set);
    for (size_t k = 0; k < CLEANUP_SIGNALS; k++) sigaddset(&set, cleanup_signals[k]);
    (void)sigprocmask(SIG_BLOCK, &set, old);
}

/* From now on a cleanup signal removes temp (NULL: nothing named yet) and ends the process; an ignored one stays
 * ignored. */
static void guard_on(signal_guard *g, const char *temp) {
    sigset_t old;
    block_cleanup_signals(&old);
    pending_temp = temp;
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = remove_temp_and_die;
    sigemptyset(&act.sa_mask); /* one handler at a time: the others wait, then find nothing to remove */
    for (size_t k = 0; k < CLEANUP_SIGNALS; k++) sigaddset(&act.sa_mask, cleanup_signals[k]);
    for (size_t k = 0; k < CLEANUP_SIGNALS; k++) {
        g->installed[k] = false;
        if (sigaction(cleanup_signals[k], NULL, &g->old[k]) != 0 || g->old[k].sa_handler == SIG_IGN) continue;
        g->installed[k] = sigaction(cleanup_signals[k], &act, NULL) == 0;
    }
    (void)sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The handlers as they were; nothing left to remove. A signal that came while they were blocked acts after, as it
 * would have without the guard. */
static void guard_off(signal_guard *g) {
    sigset_t old;
    block_cleanup_signals(&old);
    pending_temp = NULL;
    for (size_t k = 0; k < CLEANUP_SIGNALS; k++)
        if (g->installed[k]) (void)sigaction(cleanup_signals[k], &g->old[k], NULL);
    (void)sigprocmask(SIG_SETMASK, &old, NULL);
}

/* An unnamed file in dir (first n bytes of a path; "." when n is 0) that linkat can name later, or -1 where the
 * system has none (no O_TMPFILE, a file system without it, no /proc to link it through). */
static int unnamed_temp(const char *dir, size_t n) {
#if defined(O_TMPFILE) && defined(__linux__)
    /* APLAN_NAMED_TEMP (any value): the named file, as on systems without O_TMPFILE; a testing knob. */
    if (getenv("APLAN_NAMED_TEMP") != NULL || access("/proc/self/fd", X_OK) != 0) return -1;
    char *d = malloc(n + 2u);
    if (d == NULL) return -1;
    if (n == 0) d[0] = '.', d[1] = '\0';
    else memcpy(d, dir, n), d[n] = '\0';
    int fd = open(d, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    free(d);
    return fd;
#else
    (void)dir, (void)n;
    return -1;
#endif
}

/* Name the unnamed file fd as temp (its last 6 characters replaced by a name no file has), then rename it over path,
 * with the cleanup signals blocked throughout: a signal then acts after the rename (the file replaced whole), and
 * the hidden name exists only between the two calls. 0, or the errno of the failure (nothing left behind). */
static int link_and_rename(int fd, char *temp, const char *path) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t x = ((uint64_t)getpid() << 32) ^ (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 20);
    char *tail = temp + strlen(temp) - 6u;
    int err = EEXIST;
    for (unsigned attempt = 0; attempt < 100u && err == EEXIST; attempt++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        for (size_t k = 0; k < 6u; k++) tail[k] = digits[(x >> (16u + 6u * k)) % 62u];
        sigset_t old;
        block_cleanup_signals(&old);
        err = linkat(AT_FDCWD, proc, AT_FDCWD, temp, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
        if (err == 0 && rename(temp, path) != 0) {
            err = errno;
            (void)unlink(temp);
        }
        (void)sigprocmask(SIG_SETMASK, &old, NULL);
    }
    return err;
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
    signal_guard guard;
    /* An unnamed file where the system has them (named only once complete); else a hidden one, removed by the
     * guard's handlers if a signal ends the write. */
    int unnamed = unnamed_temp(path, dir);
    int fd = unnamed >= 0 ? dup(unnamed) : -1; /* unnamed stays open past fclose: linkat names it through it */
    if (unnamed >= 0 && fd < 0) close(unnamed), unnamed = -1;
    if (unnamed >= 0) {
        guard_on(&guard, NULL);
    } else {
        /* Blocked from before mkstemp to the handler's install: no moment when the file exists unguarded. */
        sigset_t old;
        block_cleanup_signals(&old);
        fd = mkstemp(tmp);
        if (fd >= 0) guard_on(&guard, tmp);
        (void)sigprocmask(SIG_SETMASK, &old, NULL);
    }
    if (fd < 0) {
        cli_error("cannot create a temporary file beside %s: %s", path, strerror(errno));
        free(tmp);
        return CLI_EXIT_IO;
    }
    /* The file is 0600; give it what the replaced file had, or what a new file would get. */
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
        if (rc == CLI_EXIT_OK && unnamed >= 0) {
            if ((err = link_and_rename(unnamed, tmp, path)) != 0) rc = CLI_EXIT_IO, failed = "cannot replace";
        } else if (rc == CLI_EXIT_OK) {
            /* Blocked: a signal in between finds the file renamed (path replaced whole) and nothing to remove. */
            sigset_t mask;
            block_cleanup_signals(&mask);
            if (rename(tmp, path) != 0) err = errno, rc = CLI_EXIT_IO, failed = "cannot replace";
            else pending_temp = NULL;
            (void)sigprocmask(SIG_SETMASK, &mask, NULL);
        }
    }
    if (rc != CLI_EXIT_OK) {
        if (rc == CLI_EXIT_IO) cli_error("%s %s: %s", failed, path, err != 0 ? strerror(err) : "write error");
        if (unnamed < 0) (void)unlink(tmp); /* an unnamed file goes with its last descriptor */
    }
    if (unnamed >= 0) close(unnamed);
    guard_off(&guard);
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
