/*
 * faultinject: an LD_PRELOAD shim that makes one kind of file-system call fail, for tests.
 *
 * Build:  cc -shared -fPIC -O2 -o libfaultinject.so faultinject.c -ldl
 * Use:    LD_PRELOAD=/path/libfaultinject.so FAULT_OP=fsync FAULT_NTH=3 FAULT_ERRNO=EIO \
 *         FAULT_PATH_PREFIX=/data/customizations.journal  some-program
 *
 * FAULT_OP           the operation to fail:
 *                      fsync   fsync, fdatasync
 *                      write   write, writev, pwrite, pwrite64
 *                      rename  rename, renameat, renameat2
 *                      open    open, open64, openat, openat64, creat, creat64 that may write
 *                              (O_WRONLY, O_RDWR, O_CREAT or O_TRUNC); read-only opens pass
 *                      mkdir   mkdir, mkdirat
 * FAULT_NTH          the first failing call, counting from 1 (default 1); only calls whose path matches count.
 * FAULT_ERRNO        EIO (default), ENOSPC, EROFS, EACCES, EDQUOT, EPERM, or a number.
 * FAULT_MODE         sticky (default): the Nth matching call and every later one fail, as a failed disk stays
 *                    failed; once: only the Nth matching call fails.
 * FAULT_PATH_PREFIX  only calls on a path starting with this string count and fail (a plain string prefix);
 *                    descriptors are resolved through /proc/self/fd. For rename either name may match. When unset
 *                    or empty every call of the operation matches.
 *
 * Every injected failure is reported on stderr as "faultinject: <call> #<n> on <path> failed with <NAME> (errno <n>)".
 * Without FAULT_OP the shim only forwards. The real functions are found with dlsym(RTLD_NEXT); the counter is
 * atomic, so calls from several threads are counted exactly once each.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

enum fault_op { OP_NONE, OP_FSYNC, OP_WRITE, OP_RENAME, OP_OPEN, OP_MKDIR };

static struct {
    enum fault_op op;
    unsigned long nth;
    int error;
    int sticky;
    const char *prefix;
    size_t prefix_length;
} config;

static atomic_ulong matched_calls;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static int (*real_rename)(const char *, const char *);
static int (*real_renameat)(int, const char *, int, const char *);
static int (*real_renameat2)(int, const char *, int, const char *, unsigned int);
static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);
static int (*real_creat)(const char *, mode_t);
static int (*real_creat64)(const char *, mode_t);
static int (*real_mkdir)(const char *, mode_t);
static int (*real_mkdirat)(int, const char *, mode_t);

static const struct { const char *name; int value; } known_errors[] = {
    {"EIO", EIO}, {"ENOSPC", ENOSPC}, {"EROFS", EROFS}, {"EACCES", EACCES}, {"EDQUOT", EDQUOT}, {"EPERM", EPERM},
};
#define KNOWN_ERRORS (sizeof known_errors / sizeof known_errors[0])

static int parse_errno(const char *name) {
    if (name == NULL || *name == '\0') return EIO;
    for (size_t i = 0; i < KNOWN_ERRORS; i++) {
        if (strcmp(name, known_errors[i].name) == 0) return known_errors[i].value;
    }
    int value = atoi(name);
    return value > 0 ? value : EIO;
}

static const char *errno_name(int value) {
    for (size_t i = 0; i < KNOWN_ERRORS; i++) {
        if (known_errors[i].value == value) return known_errors[i].name;
    }
    return "an injected error";
}

static void initialize(void) {
    real_fsync = dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    real_write = dlsym(RTLD_NEXT, "write");
    real_writev = dlsym(RTLD_NEXT, "writev");
    real_pwrite = dlsym(RTLD_NEXT, "pwrite");
    real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
    real_rename = dlsym(RTLD_NEXT, "rename");
    real_renameat = dlsym(RTLD_NEXT, "renameat");
    real_renameat2 = dlsym(RTLD_NEXT, "renameat2");
    real_open = dlsym(RTLD_NEXT, "open");
    real_open64 = dlsym(RTLD_NEXT, "open64");
    real_openat = dlsym(RTLD_NEXT, "openat");
    real_openat64 = dlsym(RTLD_NEXT, "openat64");
    real_creat = dlsym(RTLD_NEXT, "creat");
    real_creat64 = dlsym(RTLD_NEXT, "creat64");
    real_mkdir = dlsym(RTLD_NEXT, "mkdir");
    real_mkdirat = dlsym(RTLD_NEXT, "mkdirat");

    const char *op = getenv("FAULT_OP");
    if (op == NULL) op = "";
    if (strcmp(op, "fsync") == 0) config.op = OP_FSYNC;
    else if (strcmp(op, "write") == 0) config.op = OP_WRITE;
    else if (strcmp(op, "rename") == 0) config.op = OP_RENAME;
    else if (strcmp(op, "open") == 0) config.op = OP_OPEN;
    else if (strcmp(op, "mkdir") == 0) config.op = OP_MKDIR;
    else config.op = OP_NONE;
    const char *nth = getenv("FAULT_NTH");
    config.nth = (nth != NULL && strtoul(nth, NULL, 10) > 0) ? strtoul(nth, NULL, 10) : 1;
    config.error = parse_errno(getenv("FAULT_ERRNO"));
    const char *mode = getenv("FAULT_MODE");
    config.sticky = !(mode != NULL && strcmp(mode, "once") == 0);
    config.prefix = getenv("FAULT_PATH_PREFIX");
    if (config.prefix == NULL) config.prefix = "";
    config.prefix_length = strlen(config.prefix);
}

static void ensure_initialized(void) {
    pthread_once(&once, initialize);
}

static int path_matches(const char *path) {
    if (config.prefix_length == 0) return 1;
    return path != NULL && strncmp(path, config.prefix, config.prefix_length) == 0;
}

/* The path an open descriptor refers to; empty when it cannot be read. */
static void descriptor_path(int fd, char *buffer, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, buffer, size - 1);
    buffer[length < 0 ? 0 : length] = '\0';
}

/* `path` made absolute against `dirfd` (or the working directory for AT_FDCWD). */
static void absolute_path(int dirfd, const char *path, char *buffer, size_t size) {
    if (path == NULL) {
        buffer[0] = '\0';
    } else if (path[0] == '/') {
        snprintf(buffer, size, "%s", path);
    } else {
        char base[PATH_MAX];
        if (dirfd == AT_FDCWD) {
            if (getcwd(base, sizeof base) == NULL) base[0] = '\0';
        } else {
            descriptor_path(dirfd, base, sizeof base);
        }
        snprintf(buffer, size, "%s/%s", base, path);
    }
}

static void report(const char *name, unsigned long number, const char *path) {
    char line[PATH_MAX + 128];
    int length = snprintf(line, sizeof line, "faultinject: %s #%lu on %s failed with %s (errno %d)\n", name, number,
                          path, errno_name(config.error), config.error);
    if (length > 0) real_write(STDERR_FILENO, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
}

/*
 * Whether this call of `op` on `path` (and `other`, for rename) must fail: it counts when it matches and fails
 * when it is the Nth matching call, or a later one in sticky mode. Sets errno when it fails.
 */
static int should_fail(enum fault_op op, const char *name, const char *path, const char *other) {
    if (config.op != op) return 0;
    if (!path_matches(path) && !(other != NULL && path_matches(other))) return 0;
    unsigned long number = atomic_fetch_add(&matched_calls, 1) + 1;
    if (number < config.nth || (!config.sticky && number != config.nth)) return 0;
    report(name, number, path_matches(path) ? path : other);
    errno = config.error;
    return 1;
}

static int descriptor_fails(enum fault_op op, const char *name, int fd) {
    ensure_initialized();
    if (config.op != op) return 0;
    char path[PATH_MAX];
    descriptor_path(fd, path, sizeof path);
    return should_fail(op, name, path, NULL);
}

static int open_fails(const char *name, int dirfd, const char *path, int flags) {
    ensure_initialized();
    if (config.op != OP_OPEN || (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) == 0) return 0;
    char absolute[PATH_MAX];
    absolute_path(dirfd, path, absolute, sizeof absolute);
    return should_fail(OP_OPEN, name, absolute, NULL);
}

static int path_fails(enum fault_op op, const char *name, int dirfd, const char *path, int other_dirfd,
                      const char *other) {
    ensure_initialized();
    if (config.op != op) return 0;
    char absolute[PATH_MAX];
    char other_absolute[PATH_MAX];
    absolute_path(dirfd, path, absolute, sizeof absolute);
    if (other != NULL) absolute_path(other_dirfd, other, other_absolute, sizeof other_absolute);
    return should_fail(op, name, absolute, other != NULL ? other_absolute : NULL);
}

/* The mode argument of open: present only with O_CREAT or O_TMPFILE. */
#define OPEN_MODE(flags, last) \
    mode_t mode = 0; \
    if ((flags) & (O_CREAT | O_TMPFILE)) { \
        va_list arguments; \
        va_start(arguments, last); \
        mode = (mode_t)va_arg(arguments, int); \
        va_end(arguments); \
    }

int fsync(int fd) {
    if (descriptor_fails(OP_FSYNC, "fsync", fd)) return -1;
    return real_fsync(fd);
}

int fdatasync(int fd) {
    if (descriptor_fails(OP_FSYNC, "fdatasync", fd)) return -1;
    return real_fdatasync(fd);
}

ssize_t write(int fd, const void *buffer, size_t count) {
    if (descriptor_fails(OP_WRITE, "write", fd)) return -1;
    return real_write(fd, buffer, count);
}

ssize_t writev(int fd, const struct iovec *vector, int count) {
    if (descriptor_fails(OP_WRITE, "writev", fd)) return -1;
    return real_writev(fd, vector, count);
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
    if (descriptor_fails(OP_WRITE, "pwrite", fd)) return -1;
    return real_pwrite(fd, buffer, count, offset);
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) {
    if (descriptor_fails(OP_WRITE, "pwrite64", fd)) return -1;
    return real_pwrite64(fd, buffer, count, offset);
}

int rename(const char *from, const char *to) {
    if (path_fails(OP_RENAME, "rename", AT_FDCWD, from, AT_FDCWD, to)) return -1;
    return real_rename(from, to);
}

int renameat(int from_dirfd, const char *from, int to_dirfd, const char *to) {
    if (path_fails(OP_RENAME, "renameat", from_dirfd, from, to_dirfd, to)) return -1;
    return real_renameat(from_dirfd, from, to_dirfd, to);
}

int renameat2(int from_dirfd, const char *from, int to_dirfd, const char *to, unsigned int flags) {
    if (path_fails(OP_RENAME, "renameat2", from_dirfd, from, to_dirfd, to)) return -1;
    return real_renameat2(from_dirfd, from, to_dirfd, to, flags);
}

int open(const char *path, int flags, ...) {
    OPEN_MODE(flags, flags)
    if (open_fails("open", AT_FDCWD, path, flags)) return -1;
    return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    OPEN_MODE(flags, flags)
    if (open_fails("open64", AT_FDCWD, path, flags)) return -1;
    return real_open64(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
    OPEN_MODE(flags, flags)
    if (open_fails("openat", dirfd, path, flags)) return -1;
    return real_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    OPEN_MODE(flags, flags)
    if (open_fails("openat64", dirfd, path, flags)) return -1;
    return real_openat64(dirfd, path, flags, mode);
}

int creat(const char *path, mode_t mode) {
    if (open_fails("creat", AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC)) return -1;
    return real_creat(path, mode);
}

int creat64(const char *path, mode_t mode) {
    if (open_fails("creat64", AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC)) return -1;
    return real_creat64(path, mode);
}

int mkdir(const char *path, mode_t mode) {
    if (path_fails(OP_MKDIR, "mkdir", AT_FDCWD, path, AT_FDCWD, NULL)) return -1;
    return real_mkdir(path, mode);
}

int mkdirat(int dirfd, const char *path, mode_t mode) {
    if (path_fails(OP_MKDIR, "mkdirat", dirfd, path, AT_FDCWD, NULL)) return -1;
    return real_mkdirat(dirfd, path, mode);
}
