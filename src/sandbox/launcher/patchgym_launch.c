/*
 * patchgym_launch: how every sandboxed child starts (see src/sandbox/launcher.ts, which builds
 * this file with the machine's C compiler and prepends the configuration below).
 *
 * Launch mode, the same steps as the shell launcher of src/sandbox/_launch.ts, in one process:
 *
 *   patchgym_launch [STEP...] -- PROGRAM ARGS...
 *
 * It first closes every inherited descriptor but 0, 1 and 2, then runs the steps in order:
 *   tag:HEX              (first only) every failure line ends with " [HEX]"
 *   mkdir:DIR            make a cgroup folder
 *   FILE=VALUE           write VALUE to a cgroup file (pids.max, memory.max, ...)
 *   join:FILE            write this process's pid to a cgroup.procs file
 *   jointask:FILE        write 0 (this thread, the only one) to a cgroup v1 tasks file
 *   ulimit:F=N           soft and hard limit in `ulimit -F` units: t seconds, f and c 512-byte
 *                        blocks, n descriptors, v KiB
 *   nproc:N              RLIMIT_NPROC
 *   jailnproc:N          RLIMIT_NPROC of this process and of its parent, the jail's pid 1 (as a
 *                        jail's first program only: its parent must be pid 1)
 *   nice:N               scheduling niceness N (0 to 19), for it and all it starts
 *   chown:UID:DIR        chown -R -P -h UID:UID DIR (links themselves, never what they point to);
 *                        DIR must be this user's or a sandbox uid's, not writable by group or
 *                        others, not sticky, not right under /
 *   passwd:TEXT          TEXT readable on fd 3 (bwrap --file 3 /etc/passwd)
 *   group:TEXT           TEXT readable on fd 4 (bwrap --file 4 /etc/group)
 *   seccomp:HEX          the filter's bytes readable on fd 5 (bwrap --seccomp 5)
 *   drop:UID             what `setpriv --reuid=UID --regid=UID --clear-groups --no-new-privs
 *                        --inh-caps=-all --bounding-set=-all` does
 *   setsid               a session of its own
 *   noctty               give up the controlling terminal, if there is one (TIOCNOTTY; refused
 *                        for a session leader, whose terminal's foreground would get SIGHUP); a
 *                        session of its own where /dev/tty is there but will not open
 *   pgrp                 a process group of its own (in the caller's session), unless it leads one
 *   hide                 last, in a mount namespace of its own: detach every mount the program
 *                        does not need (for bwrap, all but its binds' sources; `hide_mounts`)
 *   keep:PATH            a path `hide` keeps, with what is mounted inside it
 *   hold:NONCE           with no PROGRAM after "--": instead of an exec, name this process
 *                        "patchgym-hold" (NONCE on its command line tells it apart) and wait for
 *                        a SIGRTMIN whose value is the status to end with (0-255: exit with it;
 *                        256 + N: die of signal N). The run's program is forked into the jail by
 *                        the warm interpreter (src/sandbox/_zygote.ts), which takes this
 *                        process's stdin, stdout and stderr and sends the signal when it ends
 *   await                with no PROGRAM after "--": a jail made ahead of its run. Print
 *                        "patchgym: ready" on stderr, then read the run from stdin to its end:
 *                        NUL-ended fields, the environment (NAME=VALUE), an empty field, more
 *                        steps (a `tag:` first), "--", PROGRAM and its arguments; print
 *                        "patchgym: run" once it is read; stdin becomes /dev/null. A stdin closed
 *                        with nothing on it exits 125 with nothing started (`await_run`)
 * then execs PROGRAM: bwrap (its path found when this file was built) or a name of the closed
 * allowlist, looked up on the fixed children's PATH; anything else is refused. A failed step
 * prints "patchgym: cannot set up the sandbox: ..." and exits 125.
 *
 * Helper modes replace the shell scripts the orchestrator ran for cgroup and mount work (Deno
 * refuses to write /sys/fs/cgroup and /proc/self without --allow-all):
 *   sweep procs:FILE [kill:FILE] [events:FILE...] [rmdir:DIR...]   empty and remove cgroups
 *   cgroup-probe DIR...             print "ok DIR FILES..." or "no DIR" per parent folder (and
 *                                   empty and remove the cgroups of patchgym processes gone)
 *   self                            print /proc/self/cgroup ("c LINE") and mountinfo ("m LINE")
 *   uid                             print the real uid
 *   mount-workspace BYTES INODES DIR   mount a capped nosuid, nodev tmpfs of mode 0700 on DIR,
 *                                   unless a folder on its path is closed to mounts
 *   umount DIR                      unmount DIR (lazily when busy); never fails
 *   umount-under DIR                close DIR to mounts (once those in flight below it landed),
 *                                   then detach every mount below DIR (an exiting or dead run's
 *                                   workspaces): none lands there after it
 *   mount-probe                     whether a tmpfs can be mounted here
 *   kill PID...                     SIGKILL each (a negative PID is a process group)
 *   waited procs:FILE... [cpu:FILE] print how long a run's tasks waited for a CPU, its CPU time,
 *                                   and the machine's idle time (see `waited`)
 *   serve                           the five modes above them but probes (sweep, mount-workspace,
 *                                   umount, kill, waited) on request, for as long as stdin is open
 *   runs                            runs on request, each from its spawn (of this file, in launch
 *                                   mode) to its sweep, with capped output (see `runs`)
 * Paths of cgroup steps must lie under /sys/fs/cgroup/ without a ".." part. A workspace is
 * mounted only on a folder of this process's user that no one else may write, named by its real
 * path (no symlink on the way, and the folder opened still at that path), and only a tmpfs is
 * unmounted that way (through the descriptor checked). A request line holding a NUL ends `serve`.
 *
 * `serve` spares the orchestrator a process per request: it reads requests, one a line
 * ("ID\tMODE\tARG\tARG...\n"), and answers each from a process forked for it (a sweep can take
 * seconds; others go on meanwhile; the sweep of cgroups that hold no process any more is answered
 * by the server itself) with one write of at most PIPE_BUF bytes:
 * "ID STATUS OUTLEN ERRLEN\n" then OUTLEN bytes of output and ERRLEN of messages. A request
 * whose process dies without answering is answered by the server with status 1. It exits when
 * stdin closes or its parent dies, never execs anything, and keeps only the capabilities its
 * requests need (see `serve_privileges`).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <poll.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

#define LAUNCH_FAILED 125
#define CGROUP_ROOT "/sys/fs/cgroup/"
#define NAME_PREFIX "patchgym-"
/* The lowest uid a sandbox may run as (src/sandbox/users.ts refuses ranges below it). */
#define FIRST_SANDBOX_UID 65536

extern char **environ;

/*
 * The run's tag (a `tag:HEX` first step): a failure line ends with " [HEX]", so the orchestrator
 * tells it from a program that prints the same line and exits 125. Nothing in the jail sees it:
 * the steps are not passed on to what this execs.
 */
static const char *fail_tag = NULL;

static void fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fputs("patchgym: cannot set up the sandbox: ", stderr);
  vfprintf(stderr, format, args);
  if (fail_tag) fprintf(stderr, " [%s]", fail_tag);
  fputc('\n', stderr);
  va_end(args);
  exit(LAUNCH_FAILED);
}

static int starts_with(const char *text, const char *prefix) {
  return strncmp(text, prefix, strlen(prefix)) == 0;
}

static int ends_with(const char *text, const char *suffix) {
  size_t a = strlen(text), b = strlen(suffix);
  return a >= b && strcmp(text + a - b, suffix) == 0;
}

/* Whether PATH is a cgroup path: under the cgroup root, no ".." part. */
static int cgroup_path(const char *path) {
  if (!starts_with(path, CGROUP_ROOT)) return 0;
  for (const char *p = path; (p = strstr(p, "..")) != NULL; p += 2) {
    if ((p == path || p[-1] == '/') && (p[2] == '/' || p[2] == '\0')) return 0;
  }
  return 1;
}

static void need_cgroup_path(const char *step, const char *path) {
  if (!cgroup_path(path)) fail("step \"%s\" names a path outside " CGROUP_ROOT, step);
}

static int write_text(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return -1;
  size_t length = strlen(text);
  ssize_t written = write(fd, text, length);
  int saved = errno;
  if (close(fd) != 0 && written == (ssize_t)length) return -1;
  errno = saved;
  return written == (ssize_t)length ? 0 : -1;
}

/* Closes every descriptor above 2: close_range when the kernel has it, else /proc/self/fd. */
static void close_inherited(void) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
  int fds[1024];
  for (;;) {
    DIR *dir = opendir("/proc/self/fd");
    if (!dir) fail("cannot list inherited file descriptors: %s", strerror(errno));
    int own = dirfd(dir), count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL && count < 1024) {
      int fd = atoi(entry->d_name);
      if (entry->d_name[0] != '.' && fd > 2 && fd != own) fds[count++] = fd;
    }
    closedir(dir);
    if (count == 0) return;
    for (int i = 0; i < count; i++) close(fds[i]);
  }
}

static long long number(const char *step, const char *text) {
  char *end;
  errno = 0;
  long long value = strtoll(text, &end, 10);
  if (errno || end == text || *end != '\0' || value < 0) fail("step \"%s\" needs a number", step);
  return value;
}

static void set_limit(const char *step, int resource, rlim_t value) {
  struct rlimit limit = {value, value};
  if (setrlimit(resource, &limit) != 0) fail("step \"%s\" failed: %s", step, strerror(errno));
}

/*
 * `jailnproc:N`, in a jail without root: the kernel counts RLIMIT_NPROC in the jail's own user
 * namespace, but bwrap's pid 1 (this process's parent, of the jail's uid, forked before any cap)
 * keeps the user's limit, and code in the jail that could make it fork (by tracing it, where no
 * seccomp filter refuses ptrace) would go past the cap: it gets the cap too.
 */
static void jail_nproc_step(const char *step, rlim_t value) {
  if (getppid() != 1) fail("step \"%s\": not a jail's first program (its parent is not pid 1)", step);
  struct rlimit limit = {value, value};
  if (prlimit(1, RLIMIT_NPROC, &limit, NULL) != 0) {
    fail("step \"%s\" failed for pid 1: %s", step, strerror(errno));
  }
  set_limit(step, RLIMIT_NPROC, value);
}

static void ulimit_step(const char *step, const char *spec) {
  if (strlen(spec) < 3 || spec[1] != '=') fail("step \"%s\" is not ulimit:F=N", step);
  rlim_t value = (rlim_t)number(step, spec + 2);
  switch (spec[0]) {
    case 't': set_limit(step, RLIMIT_CPU, value); break;
    case 'f': set_limit(step, RLIMIT_FSIZE, value * 512); break;
    case 'c': set_limit(step, RLIMIT_CORE, value * 512); break;
    case 'n': set_limit(step, RLIMIT_NOFILE, value); break;
    case 'v': set_limit(step, RLIMIT_AS, value * 1024); break;
    default: fail("step \"%s\" names an unknown limit", step);
  }
}

/*
 * Gives everything in the current folder to ID, links themselves, depth first. It walks by
 * changing folder (one descriptor open at a time), so no path grows with the depth: a tree nested
 * deeper than PATH_MAX or than the descriptor limit is walked whole, as `chown -R` does.
 */
static int chown_here(uid_t id) {
  DIR *dir = opendir(".");
  if (!dir) return -1;
  char **folders = NULL;
  size_t count = 0, room = 0;
  int result = 0;
  struct dirent *entry;
  while (result == 0 && (entry = readdir(dir)) != NULL) {
    const char *name = entry->d_name;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
    if (fchownat(dirfd(dir), name, id, id, AT_SYMLINK_NOFOLLOW) != 0) {
      result = -1;
      break;
    }
    int folder = entry->d_type == DT_DIR;
    struct stat st;
    if (entry->d_type == DT_UNKNOWN && fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
      folder = S_ISDIR(st.st_mode);
    }
    if (!folder) continue;
    if (count == room) {
      room = room ? room * 2 : 16;
      char **grown = realloc(folders, room * sizeof *folders);
      if (!grown) {
        result = -1;
        break;
      }
      folders = grown;
    }
    if ((folders[count] = strdup(name)) == NULL) result = -1;
    else count++;
  }
  closedir(dir);
  for (size_t i = 0; i < count; i++) {
    if (result == 0) {
      int fd = open(folders[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      int entered = fd >= 0 && fchdir(fd) == 0;
      /* Closed before going down: one descriptor per level ran out past the limit on them. */
      if (fd >= 0) close(fd);
      if (!entered) {
        result = -1;
      } else {
        result = chown_here(id);
        /* Back up: nothing of the sandbox runs now, so nothing moves the tree meanwhile. */
        if (chdir("..") != 0) result = -1;
      }
    }
    free(folders[i]);
  }
  free(folders);
  return result;
}

static void chown_step(const char *step, const char *spec) {
  char *end;
  long long uid = strtoll(spec, &end, 10);
  if (end == spec || *end != ':' || end[1] != '/') fail("step \"%s\" is not chown:UID:DIR", step);
  if (uid < FIRST_SANDBOX_UID || uid > 0xfffffffeLL) fail("step \"%s\" names no sandbox uid", step);
  const char *root = end + 1;
  /*
   * Only a folder of this user's (a workspace, a report folder) or a sandbox uid's already is
   * handed over, and not a shared one: a folder others may write or a sticky one (/tmp), another
   * user's (a home), or one right under / (/usr, /root). Named by mistake, it would become the
   * sandbox's with everything in it.
   */
  struct stat st;
  if (lstat(root, &st) != 0) fail("step \"%s\" failed: %s", step, strerror(errno));
  /*
   * A folder a sandbox uid already has was handed over by an earlier run (a workspace), and its
   * code could change the folder's mode (`chmod 1777 .`, `chmod 0 .`): it is closed up again
   * first, as it was made, so that it does not look shared and stop every later run in it.
   */
  if (S_ISDIR(st.st_mode) && st.st_uid >= FIRST_SANDBOX_UID && (st.st_mode & 07777) != 0700) {
    int folder = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (folder < 0 || fchmod(folder, 0700) != 0 || fstat(folder, &st) != 0) {
      fail("step \"%s\" failed: %s", step, strerror(errno));
    }
    close(folder);
  }
  if (S_ISDIR(st.st_mode) &&
      ((st.st_uid != geteuid() && st.st_uid < FIRST_SANDBOX_UID) || (st.st_mode & 01022) != 0 ||
       strchr(root + 1, '/') == NULL)) {
    fail("step \"%s\" refused: %s is a shared folder", step, root);
  }
  if (lchown(root, (uid_t)uid, (uid_t)uid) != 0) fail("step \"%s\" failed: %s", step, strerror(errno));
  int folder = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (folder < 0) {
    if (errno == ENOTDIR || errno == ELOOP) return; /* A file or a link: done. */
    fail("step \"%s\" failed: %s", step, strerror(errno));
  }
  int home = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (home < 0 || fchdir(folder) != 0) fail("step \"%s\" failed: %s", step, strerror(errno));
  close(folder);
  int walked = chown_here((uid_t)uid), saved = errno;
  /* The program starts in the folder the launcher was started in. */
  if (fchdir(home) != 0) fail("step \"%s\" failed: cannot return: %s", step, strerror(errno));
  close(home);
  if (walked != 0) fail("step \"%s\" failed: %s", step, strerror(saved));
}

/*
 * The `chown` step of a run a jail made ahead read (`await`): in a child, whose CPU time does not
 * count against the program's (this process execs it, and a large tree took half a second), as
 * the launcher's own step before bwrap forks the jail's first program does not either.
 */
static void chown_apart(const char *step, const char *spec) {
  pid_t child = fork();
  if (child < 0) fail("step \"%s\" failed: %s", step, strerror(errno));
  if (child == 0) {
    chown_step(step, spec);
    fflush(stderr);
    _exit(0);
  }
  int status;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) fail("step \"%s\" failed: %s", step, strerror(errno));
  }
  /* The child said why with the run's tag. */
  if (WIFEXITED(status) && WEXITSTATUS(status) == LAUNCH_FAILED) exit(LAUNCH_FAILED);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail("step \"%s\" failed: it died", step);
}

/* Puts LENGTH bytes of DATA on descriptor TARGET as the read end of a filled, closed pipe. */
static void pipe_to(const char *step, int target, const char *data, size_t length) {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) fail("step \"%s\" failed: %s", step, strerror(errno));
  if (length > 65536 && fcntl(ends[1], F_SETPIPE_SZ, (int)length) < 0) {
    fail("step \"%s\" failed: %zu bytes do not fit a pipe", step, length);
  }
  for (size_t done = 0; done < length;) {
    ssize_t n = write(ends[1], data + done, length - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("step \"%s\" failed: %s", step, strerror(errno));
    done += (size_t)n;
  }
  close(ends[1]);
  if (ends[0] == target) {
    if (fcntl(target, F_SETFD, 0) != 0) fail("step \"%s\" failed: %s", step, strerror(errno));
  } else {
    if (dup2(ends[0], target) < 0) fail("step \"%s\" failed: %s", step, strerror(errno));
    close(ends[0]);
  }
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

static void seccomp_step(const char *step, const char *hex) {
  size_t length = strlen(hex) / 2;
  if (length == 0 || strlen(hex) % 2) fail("step \"seccomp\" needs hex bytes");
  char *bytes = malloc(length);
  if (!bytes) fail("step \"seccomp\" failed: out of memory");
  for (size_t i = 0; i < length; i++) {
    int high = hex_digit(hex[2 * i]), low = hex_digit(hex[2 * i + 1]);
    if (high < 0 || low < 0) fail("step \"seccomp\" needs hex bytes");
    bytes[i] = (char)(high << 4 | low);
  }
  pipe_to(step, 5, bytes, length);
  free(bytes);
}

/* setpriv --reuid --regid --clear-groups --no-new-privs --inh-caps=-all --bounding-set=-all */
static void drop_step(const char *step, const char *text) {
  long long id = number(step, text);
  if (id < 1 || id > 0xfffffffeLL) fail("step \"%s\" names no unprivileged uid", step);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    fail("step \"%s\": no_new_privs: %s", step, strerror(errno));
  }
  if (geteuid() == 0) {
    for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++) {
      if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
        fail("step \"%s\": bounding set: %s", step, strerror(errno));
      }
    }
    if (setgroups(0, NULL) != 0) fail("step \"%s\": setgroups: %s", step, strerror(errno));
  }
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  if (setresgid((gid_t)id, (gid_t)id, (gid_t)id) != 0) {
    fail("step \"%s\": setresgid: %s", step, strerror(errno));
  }
  if (setresuid((uid_t)id, (uid_t)id, (uid_t)id) != 0) {
    fail("step \"%s\": setresuid: %s", step, strerror(errno));
  }
  /* The inheritable set survives a uid change; the permitted and effective sets do not. */
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capset, &header, data) != 0) {
    fail("step \"%s\": capset: %s", step, strerror(errno));
  }
}

/*
 * Without a terminal, nothing this process starts can push input into it (TIOCSTI) or read it: a
 * process that is not a session leader can never take one again. /dev/tty opens only while there
 * is one. Where it is there but will not open for this user (a terminal in exclusive mode: EBUSY),
 * it takes a session of its own instead, which has no terminal either (what bwrap's --new-session
 * did, at the cost of a scheduling group of its own where the kernel's autogroup is on).
 */
static void noctty_step(void) {
  int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENXIO || errno == ENOENT) return;
    int opened = errno;
    if (setsid() < 0) {
      fail("step \"noctty\" failed: /dev/tty: %s; setsid: %s", strerror(opened), strerror(errno));
    }
    return;
  }
  if (getsid(0) == getpid()) fail("step \"noctty\" refused: this process leads its session");
  if (ioctl(fd, TIOCNOTTY) != 0) fail("step \"noctty\" failed: %s", strerror(errno));
  close(fd);
}

static int allowed_name(const char *name) {
  for (size_t i = 0; i < sizeof ALLOWED_PROGRAMS / sizeof *ALLOWED_PROGRAMS; i++) {
    if (strcmp(name, ALLOWED_PROGRAMS[i]) == 0) return 1;
  }
  return 0;
}

/* Execs bwrap or an allowlisted program; returns only to fail. */
static void exec_program(char **argv) {
  const char *program = argv[0];
  if (!program) fail("no program after \"--\"");
  if (BWRAP_PATH[0] && (strcmp(program, "bwrap") == 0 || strcmp(program, BWRAP_PATH) == 0)) {
    execve(BWRAP_PATH, argv, environ);
    fail("cannot run %s: %s", BWRAP_PATH, strerror(errno));
  }
  if (DENO_PATH[0] && strcmp(program, DENO_PATH) == 0) {
    execve(DENO_PATH, argv, environ);
    fail("cannot run %s: %s", DENO_PATH, strerror(errno));
  }
  if (strchr(program, '/') || !allowed_name(program)) {
    fail("\"%s\" is neither bwrap nor an allowlisted program", program);
  }
  char path[PATH_MAX];
  const char *dirs = CHILD_PATH;
  int saved = ENOENT;
  while (*dirs) {
    size_t length = strcspn(dirs, ":");
    if (snprintf(path, sizeof path, "%.*s/%s", (int)length, dirs, program) < (int)sizeof path) {
      execve(path, argv, environ);
      if (errno != ENOENT) saved = errno;
    }
    dirs += length + (dirs[length] == ':');
  }
  fail("cannot run \"%s\" from %s: %s", program, CHILD_PATH, strerror(saved));
}

/* How many `keep:` steps a launch takes at most. */
#define MAX_KEPT 64
/* Where `hide` builds the new root (a folder every system has; hidden in its namespace only). */
#define HIDE_STAGE "/tmp"
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif

/* A mountinfo path field with its octal escapes (\040 for a space) decoded, in place. */
static void unescape(char *field) {
  char *out = field;
  for (char *in = field; *in; out++) {
    if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' &&
        in[3] >= '0' && in[3] <= '7') {
      *out = (char)((in[1] - '0') << 6 | (in[2] - '0') << 3 | (in[3] - '0'));
      in += 4;
    } else {
      *out = *in++;
    }
  }
  *out = '\0';
}

/*
 * The mount point of a /proc/self/mountinfo LINE ("ID PARENT MAJ:MIN ROOT POINT ..."), cut and
 * decoded in place; null for a line without one.
 */
static char *mount_point(char *line) {
  char *point = line;
  for (int field = 0; field < 4 && point; field++) {
    point = strchr(point, ' ');
    if (point) point++;
  }
  if (!point) return NULL;
  point[strcspn(point, " ")] = '\0';
  unescape(point);
  return point;
}

/* Whether PATH is ABOVE itself or a path below it. */
static int at_or_below(const char *path, const char *above) {
  size_t length = strlen(above);
  if (length == 1) return path[0] == '/';
  return strncmp(path, above, length) == 0 && (path[length] == '\0' || path[length] == '/');
}

/* A place `hide` keeps: the mounts at or above it, and with `inside` those below it too. */
struct kept_place {
  char *path;
  int inside;
};

struct kept_places {
  struct kept_place *list;
  int count, capacity;
};

static void add_place(struct kept_places *places, char *path, int inside) {
  if (!path) fail("step \"hide\" failed: out of memory");
  if (places->count == places->capacity) {
    places->capacity = places->capacity ? places->capacity * 2 : 64;
    struct kept_place *grown = realloc(places->list, places->capacity * sizeof *grown);
    if (!grown) fail("step \"hide\" failed: out of memory");
    places->list = grown;
  }
  places->list[places->count++] = (struct kept_place){ path, inside };
}

/*
 * Keep PATH, and its real path when it leads elsewhere (a symlink into another mount). Returns
 * that real path (kept until the exec), or null when PATH is its own or leads nowhere.
 */
static const char *keep_place(struct kept_places *places, const char *path, int inside) {
  if (path[0] != '/') fail("step \"hide\" failed: %s is not an absolute path", path);
  add_place(places, strdup(path), inside);
  char *real = realpath(path, NULL);
  if (real && strcmp(real, path) != 0) {
    add_place(places, real, inside);
    return real;
  }
  free(real);
  return NULL;
}

/* The bind options of bwrap: each takes SOURCE DEST, and binds SOURCE with what is mounted inside. */
static int bind_option(const char *arg) {
  static const char *const options[] = { "--bind", "--bind-try", "--ro-bind", "--ro-bind-try",
                                         "--dev-bind", "--dev-bind-try" };
  for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
    if (strcmp(arg, options[i]) == 0) return 1;
  }
  return 0;
}

/*
 * The `hide` step, run last. A jail's mount namespace starts as a copy of the host's, and bwrap
 * reads the whole mount table again after each of its binds (to apply read-only and nosuid to what
 * is mounted below). The host's table holds a tmpfs for every workspace and scoring copy of every
 * episode running (one or two each, and one per test run given no workspace's), and whatever else
 * the host mounts (containers, snaps, cgroups): with 128 episodes running, reading it was a tenth
 * of all the machine's CPU. Here, in a mount namespace of its own that is a slave of the host's
 * (nothing done here reaches the host), every mount is detached but those the exec'd program needs:
 * for bwrap, the mounts at or above each bind's source and those inside it; /proc and /dev (bwrap
 * reads /proc/self, and makes the jail's /dev from the host's device nodes) and the program itself;
 * and each `keep:` path. What is kept is closed upward (a kept mount's parents are at or above the
 * same path), so detaching the outermost others never takes a kept one along. Other episodes' files
 * are then out of reach even while bwrap sets the jail up.
 *
 * Where the namespace cannot be made it does nothing: bwrap then works as before.
 */
static void hide_mounts(char **keep, int kept, char **program) {
  struct kept_places places = { NULL, 0, 0 };
  for (int k = 0; k < kept; k++) keep_place(&places, keep[k], 1);
  keep_place(&places, "/proc", 0);
  keep_place(&places, "/dev", 0);
  if (BWRAP_PATH[0] && program[0] &&
      (strcmp(program[0], "bwrap") == 0 || strcmp(program[0], BWRAP_PATH) == 0)) {
    keep_place(&places, BWRAP_PATH, 0);
    for (int i = 1; program[i] && strcmp(program[i], "--") != 0; i++) {
      if (bind_option(program[i]) && program[i + 1]) {
        /* A relative source is bwrap's to resolve: leave everything in place. */
        if (program[i + 1][0] != '/') goto done;
        /*
         * bwrap resolves a source's symlinks itself, after this step: a chain of links that
         * passes through a mount neither the source nor its real path is under would lead
         * through the folder below that mount, somewhere else than on the host (other files, or
         * none). bwrap gets the real path found here instead, the same place.
         */
        const char *real = keep_place(&places, program[i + 1], 1);
        if (real && !(program[i + 1] = strdup(real))) fail("step \"hide\" failed: out of memory");
        i += program[i + 2] ? 2 : 1;
      }
    }
  } else {
    /* Any other program is looked up on the children's PATH. */
    for (const char *dirs = CHILD_PATH; *dirs;) {
      size_t length = strcspn(dirs, ":");
      char *dir = strndup(dirs, length);
      if (dir && dir[0] == '/') keep_place(&places, dir, 0);
      free(dir);
      dirs += length + (dirs[length] == ':');
    }
  }
  if (unshare(CLONE_NEWNS) != 0) goto done;
  if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0) goto done;
  FILE *file = fopen("/proc/self/mountinfo", "re");
  if (!file) goto done;
  char **points = NULL; /* the kept mounts' places, parents first, each once */
  size_t count = 0, capacity = 0;
  char *line = NULL;
  size_t size = 0;
  while (getline(&line, &size, file) >= 0) {
    char *point = mount_point(line);
    if (!point) continue;
    int keep_it = 0;
    for (int k = 0; k < places.count && !keep_it; k++) {
      keep_it = at_or_below(places.list[k].path, point) ||
                (places.list[k].inside && at_or_below(point, places.list[k].path));
    }
    /* Mounts stacked on one place: a clone of the place is the top one, which is what is seen. */
    for (size_t i = 0; i < count && keep_it; i++) keep_it = strcmp(points[i], point) != 0;
    if (!keep_it) continue;
    if (count == capacity) {
      capacity = capacity ? capacity * 2 : 16;
      char **grown = realloc(points, capacity * sizeof *points);
      if (!grown) fail("step \"hide\" failed: out of memory");
      points = grown;
    }
    points[count] = strdup(point);
    if (!points[count++]) fail("step \"hide\" failed: out of memory");
  }
  free(line);
  fclose(file);
  /*
   * A tree of clones of the kept mounts alone (each without what is mounted inside it) becomes
   * the root, and the old root is detached with everything else in one call (one RCU grace
   * period, where detaching each mount waits for one apiece). Until the first clone is attached
   * a failure leaves everything as it was; after, it fails the launch.
   */
  int *clones = malloc((count ? count : 1) * sizeof *clones);
  char cwd[PATH_MAX];
  if (!clones || !getcwd(cwd, sizeof cwd) || count == 0 || strcmp(points[0], "/") != 0) goto release;
  size_t cloned = 0;
  for (; cloned < count; cloned++) {
    clones[cloned] = (int)syscall(SYS_open_tree, AT_FDCWD, points[cloned],
                                  OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
    if (clones[cloned] < 0) break;
  }
  if (cloned < count) goto close_clones;
  if (syscall(SYS_move_mount, clones[0], "", AT_FDCWD, HIDE_STAGE, MOVE_MOUNT_F_EMPTY_PATH) != 0) {
    goto close_clones;
  }
  for (size_t i = 1; i < count; i++) {
    char place[PATH_MAX];
    if (snprintf(place, sizeof place, "%s%s", HIDE_STAGE, points[i]) >= (int)sizeof place) {
      fail("step \"hide\" failed: cannot keep %s: its path is too long", points[i]);
    }
    if (syscall(SYS_move_mount, clones[i], "", AT_FDCWD, place, MOVE_MOUNT_F_EMPTY_PATH) != 0) {
      /*
       * Its place went after the table was read (a mount inside a kept folder, unmounted and its
       * folder removed meanwhile, as another episode's are when it ends): it is gone on the host
       * too, and so is any place below it. Failing here ended an honest run as broken set-up.
       */
      if (errno == ENOENT) continue;
      fail("step \"hide\" failed: cannot keep %s: %s", points[i], strerror(errno));
    }
  }
  /* pivot_root(".", "."): the old root ends on top of the new one, where umount2 detaches it. */
  if (chdir(HIDE_STAGE) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 ||
      umount2(".", MNT_DETACH) != 0 || chdir(cwd) != 0) {
    fail("step \"hide\" failed: cannot change the root: %s", strerror(errno));
  }
close_clones:
  for (size_t i = 0; i < cloned; i++) close(clones[i]);
release:
  free(clones);
  for (size_t i = 0; i < count; i++) free(points[i]);
  free(points);
done:
  for (int k = 0; k < places.count; k++) free(places.list[k].path);
  free(places.list);
}

/*
 * The `hold` step: stands for a program forked from outside the jail into its namespaces, keeping
 * the run's pipes and its place as the jail's program, and ends as that program ended. The name
 * is set only once the signal is blocked: it tells the warm interpreter the holder is ready.
 */
static void hold(void) {
  sigset_t wanted;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGRTMIN);
  if (sigprocmask(SIG_BLOCK, &wanted, NULL) != 0) fail("step \"hold\" failed: %s", strerror(errno));
  if (prctl(PR_SET_NAME, "patchgym-hold", 0, 0, 0) != 0) {
    fail("step \"hold\" failed: %s", strerror(errno));
  }
  for (;;) {
    siginfo_t info;
    if (sigwaitinfo(&wanted, &info) != SIGRTMIN) continue;
    int status = info.si_value.sival_int;
    if (status >= 0 && status < 256) _exit(status);
    if (status > 256 && status < 256 + 65) {
      int sig = status - 256;
      signal(sig, SIG_DFL);
      sigset_t just;
      sigemptyset(&just);
      sigaddset(&just, sig);
      sigprocmask(SIG_UNBLOCK, &just, NULL);
      raise(sig);
      kill(getpid(), SIGKILL);
    }
  }
}

/* The most bytes `await` reads: a run's environment, steps and argv (Linux caps argv at 2 MiB). */
#define AWAIT_MAX (4 << 20)
/*
 * What `await` says on stderr once its jail is made, and once it has its run (the orchestrator
 * takes both off the stream): without the second, nothing of the run started.
 */
static const char READY[] = "patchgym: ready\n";
static const char TAKEN[] = "patchgym: run\n";

static int run_steps(int argc, char **argv, int i, int awaited);

/*
 * The `await` step: a jail made ahead of its run (`Sandbox.run`'s `ahead`, src/sandbox/sandbox.ts).
 * It says it is ready on stderr, then reads the rest of the run from stdin to its end, as NUL-ended
 * fields: the program's environment (NAME=VALUE each), an empty field, more steps, "--", the
 * program and its arguments. Nothing of the run is known before: a stdin closed without a run ends
 * it with nothing started. stdin then becomes /dev/null, as a run without stdin has it.
 */
static int await_run(void) {
  size_t ready = sizeof READY - 1;
  if (write(2, READY, ready) != (ssize_t)ready) fail("step \"await\" failed: %s", strerror(errno));
  size_t room = 64 * 1024, length = 0;
  char *text = malloc(room);
  if (!text) fail("step \"await\" failed: out of memory");
  for (;;) {
    if (length == room) {
      if (room >= AWAIT_MAX) fail("step \"await\": the run is over %d bytes", AWAIT_MAX);
      room *= 2;
      char *grown = realloc(text, room);
      if (!grown) fail("step \"await\" failed: out of memory");
      text = grown;
    }
    ssize_t n = read(0, text + length, room - length);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("step \"await\" failed: %s", strerror(errno));
    if (n == 0) break;
    length += (size_t)n;
  }
  if (length == 0) _exit(LAUNCH_FAILED); /* Not needed after all: nothing was started. */
  if (text[length - 1] != '\0') fail("step \"await\": the run does not end with a NUL");
  size_t fields = 0;
  for (size_t at = 0; at < length; at++) fields += text[at] == '\0';
  char **list = calloc(fields + 2, sizeof *list);
  if (!list) fail("step \"await\" failed: out of memory");
  size_t count = 0;
  for (size_t at = 0; at < length; at += strlen(text + at) + 1) list[count++] = text + at;
  size_t env = 0;
  while (env < count && list[env][0] != '\0') env++;
  if (env == count) fail("step \"await\": the run has no end to its environment");
  /* The environment ends at the empty field; argv (steps, "--", program) starts after it. */
  list[env] = NULL;
  char **rest = list + env; /* rest[0] stands where argv[0] would. */
  /* The run's own tag, as a launch's first step: its failures are told apart from its program's. */
  int first = 1;
  if (count - env > 1 && starts_with(rest[1], "tag:")) fail_tag = rest[first++] + 4;
  /* Said once the run is whole and tagged: from here on, a failure is said with its tag. */
  if (write(2, TAKEN, sizeof TAKEN - 1) != (ssize_t)(sizeof TAKEN - 1)) _exit(LAUNCH_FAILED);
  environ = list;
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null < 0 || dup2(null, 0) != 0) fail("step \"await\" failed: /dev/null: %s", strerror(errno));
  close(null);
  return run_steps((int)(count - env), rest, first, 1);
}

static int launch(int argc, char **argv) {
  if (argc > 1 && starts_with(argv[1], "tag:")) fail_tag = argv[1] + 4;
  close_inherited();
  return run_steps(argc, argv, fail_tag ? 2 : 1, 0);
}

/* Runs the steps from argv[I] to "--", then what comes after it. AWAITED: the part `await` read. */
static int run_steps(int argc, char **argv, int i, int awaited) {
  char *keep[MAX_KEPT];
  int kept = 0, hide = 0, holding = 0, awaiting = 0;
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    const char *a = argv[i];
    char *equals = strchr(a, '=');
    if (starts_with(a, "mkdir:")) {
      need_cgroup_path(a, a + 6);
      if (mkdir(a + 6, 0755) != 0) fail("step \"%s\" failed: %s", a, strerror(errno));
    } else if (starts_with(a, "join:") || starts_with(a, "jointask:")) {
      const char *file = strchr(a, ':') + 1;
      need_cgroup_path(a, file);
      char pid[24];
      snprintf(pid, sizeof pid, "%d", a[4] == ':' ? (int)getpid() : 0);
      if (write_text(file, pid) != 0) fail("step \"%s\" failed: %s", a, strerror(errno));
    } else if (starts_with(a, "ulimit:")) {
      ulimit_step(a, a + 7);
    } else if (starts_with(a, "nice:")) {
      long long value = number(a, a + 5);
      if (value < 0 || value > 19) fail("step \"%s\": niceness is 0 to 19", a);
      if (setpriority(PRIO_PROCESS, 0, (int)value) != 0) {
        fail("step \"%s\" failed: %s", a, strerror(errno));
      }
    } else if (starts_with(a, "nproc:")) {
      set_limit(a, RLIMIT_NPROC, (rlim_t)number(a, a + 6));
    } else if (starts_with(a, "jailnproc:")) {
      jail_nproc_step(a, (rlim_t)number(a, a + 10));
    } else if (starts_with(a, "chown:")) {
      if (awaited) chown_apart(a, a + 6);
      else chown_step(a, a + 6);
    } else if (starts_with(a, "passwd:")) {
      pipe_to("passwd", 3, a + 7, strlen(a + 7));
    } else if (starts_with(a, "group:")) {
      pipe_to("group", 4, a + 6, strlen(a + 6));
    } else if (starts_with(a, "seccomp:")) {
      seccomp_step(a, a + 8);
    } else if (starts_with(a, "drop:")) {
      drop_step(a, a + 5);
    } else if (strcmp(a, "setsid") == 0) {
      if (setsid() < 0) fail("step \"setsid\" failed: %s", strerror(errno));
    } else if (strcmp(a, "noctty") == 0) {
      noctty_step();
    } else if (strcmp(a, "pgrp") == 0) {
      /* Already leading its group (after `noctty` took a session): nothing to do. */
      if (getpgrp() != getpid() && setpgid(0, 0) != 0) {
        fail("step \"pgrp\" failed: %s", strerror(errno));
      }
    } else if (strcmp(a, "hide") == 0) {
      hide = 1;
    } else if (starts_with(a, "hold:")) {
      holding = 1;
    } else if (strcmp(a, "await") == 0 && !awaited) {
      awaiting = 1;
    } else if (starts_with(a, "keep:")) {
      if (a[5] != '/') fail("step \"%s\" names a relative path", a);
      if (kept == (int)(sizeof keep / sizeof *keep)) fail("step \"%s\": too many kept paths", a);
      keep[kept++] = (char *)a + 5;
    } else if (equals) {
      char file[PATH_MAX];
      if ((size_t)(equals - a) >= sizeof file) fail("step \"%s\" names a path too long", a);
      memcpy(file, a, (size_t)(equals - a));
      file[equals - a] = '\0';
      need_cgroup_path(a, file);
      if (write_text(file, equals + 1) != 0) fail("step \"%s\" failed: %s", a, strerror(errno));
    } else {
      fail("step \"%s\" failed: unknown step", a);
    }
  }
  if (i >= argc) fail("no \"--\" before the program");
  if (awaiting) {
    if (i + 1 < argc || hide || holding) fail("step \"await\" takes no program and comes alone");
    return await_run();
  }
  if (holding) {
    if (i + 1 < argc || hide) fail("step \"hold\" takes no program and comes without \"hide\"");
    hold();
  }
  if (hide) hide_mounts(keep, kept, argv + i + 1);
  exec_program(argv + i + 1);
  return LAUNCH_FAILED;
}

static void pause_ms(long ms) {
  struct timespec wait = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&wait, NULL);
}

/* How long a sweep waits for killed processes to finish exiting. */
#define SWEEP_LIMIT_S 300

static double monotonic_s(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* The sweep's `events:` files, as "FILE KEY VALUE" lines on OUT. */
static void sweep_events(int argc, char **argv, FILE *out) {
  for (int i = 2; i < argc; i++) {
    if (!starts_with(argv[i], "events:")) continue;
    FILE *file = fopen(argv[i] + 7, "re");
    if (!file) continue;
    char key[128];
    long long value;
    while (fscanf(file, "%127s %lld", key, &value) == 2) fprintf(out, "%s %s %lld\n", argv[i] + 7, key, value);
    fclose(file);
  }
  fflush(out);
}

static void answer(const char *id, int status, const char *text, size_t out_length,
                   const char *errors, size_t err_length);

/* Kills every process listed in PROCS until none is left, prints the events, removes the dirs. */
static int sweep(int argc, char **argv, FILE *out, FILE *err) {
  const char *procs = NULL, *killfile = NULL;
  for (int i = 2; i < argc; i++) {
    const char *colon = strchr(argv[i], ':');
    if (!colon || !cgroup_path(colon + 1)) {
      fprintf(err, "patchgym: sweep: \"%s\" names no cgroup path\n", argv[i]);
      return 1;
    }
    if (starts_with(argv[i], "procs:")) procs = colon + 1;
    if (starts_with(argv[i], "kill:")) killfile = colon + 1;
  }
  double started = monotonic_s();
  for (long round = 0; procs; round++) {
    FILE *file = fopen(procs, "re");
    if (!file) break;
    int any = 0;
    long pid;
    int use_kill = killfile && access(killfile, F_OK) == 0;
    while (fscanf(file, "%ld", &pid) == 1) {
      any = 1;
      if (!use_kill) kill((pid_t)pid, SIGKILL);
    }
    fclose(file);
    if (!any) break;
    if (use_kill) write_text(killfile, "1");
    /*
     * A killed process stays listed until its exit is done, and that takes as long as its mount
     * namespace takes to go: a jail whose /tmp holds millions of empty files took seconds, and a
     * count of rounds without pauses gave up first (the run then failed and left its cgroup). So
     * after the first rounds it waits between them, and gives up only after SWEEP_LIMIT_S.
     */
    if (round >= 1000) {
      if (monotonic_s() - started > SWEEP_LIMIT_S) {
        fprintf(err, "patchgym: cannot empty %s\n", procs);
        return 1;
      }
      pause_ms(round < 2000 ? 1 : 10);
    }
  }
  sweep_events(argc, argv, out);
  for (int i = 2; i < argc; i++) {
    if (!starts_with(argv[i], "rmdir:")) continue;
    /* A cgroup whose last process just died can stay busy for a moment on a loaded machine. */
    for (int n = 0; rmdir(argv[i] + 6) != 0 && errno != ENOENT; n++) {
      if (n >= 100) {
        fprintf(err, "patchgym: cannot remove %s\n", argv[i] + 6);
        return 1;
      }
      pause_ms(10);
    }
  }
  return 0;
}

/*
 * `serve`'s sweep of cgroups that hold no process any more, in the server itself: a jail's cgroup
 * is empty by the time its first process is reaped (its PID namespace ended with it), and a
 * process forked per sweep cost each run a fork and its wake-ups. Returns 0, having answered
 * nothing, where the sweep needs its own process: a process is left, a path is not a cgroup's, or
 * a cgroup does not go at once (the sweep then kills, waits and says what is wrong).
 */
static int sweep_at_once(int argc, char **argv, const char *id) {
  for (int i = 2; i < argc; i++) {
    const char *colon = strchr(argv[i], ':');
    if (!colon || !cgroup_path(colon + 1)) return 0;
    if (!starts_with(argv[i], "procs:")) continue;
    FILE *file = fopen(colon + 1, "re");
    if (!file) continue; /* Gone already: as the sweep takes it. */
    long pid;
    int any = fscanf(file, "%ld", &pid) == 1;
    fclose(file);
    if (any) return 0;
  }
  char *text = NULL;
  size_t length = 0;
  FILE *out = open_memstream(&text, &length);
  if (!out) return 0;
  sweep_events(argc, argv, out);
  fclose(out);
  for (int i = 2; i < argc; i++) {
    if (starts_with(argv[i], "rmdir:") && rmdir(argv[i] + 6) != 0 && errno != ENOENT) {
      free(text);
      return 0;
    }
  }
  answer(id, 0, text, length, "", 0);
  free(text);
  return 1;
}

/*
 * Empties and removes the cgroup DIR of a patchgym process that is gone: what is left in it is
 * killed first. A process whose bwrap was killed while it made the jail waits forever in it (the
 * jail's first process, which dies with its parent only later in the making); it holds the jail's
 * mounts, the workspace's memory among them.
 */
static void empty_dead(const char *dir) {
  char procs[PATH_MAX];
  if (snprintf(procs, sizeof procs, "%s/cgroup.procs", dir) >= (int)sizeof procs) return;
  for (int round = 0; round < 100 && rmdir(dir) != 0 && errno == EBUSY; round++) {
    FILE *file = fopen(procs, "re");
    long pid;
    /*
     * A process of another PID namespace than this one's (another container's) is listed as 0,
     * which `kill` would take for this process's own group: only processes seen here are killed.
     */
    while (file && fscanf(file, "%ld", &pid) == 1) {
      if (pid > 0) kill((pid_t)pid, SIGKILL);
    }
    if (file) fclose(file);
    pause_ms(10);
  }
}

/* For each parent: remove stale sandbox cgroups of dead processes, then try a fresh folder. */
static int cgroup_probe(int argc, char **argv) {
  for (int i = 2; i < argc; i++) {
    const char *parent = argv[i];
    if (!cgroup_path(parent)) {
      printf("no %s\n", parent);
      continue;
    }
    char path[PATH_MAX];
    DIR *dir = opendir(parent);
    struct dirent *entry;
    while (dir && (entry = readdir(dir)) != NULL) {
      if (!starts_with(entry->d_name, NAME_PREFIX)) continue;
      long pid = atol(entry->d_name + strlen(NAME_PREFIX));
      snprintf(path, sizeof path, "/proc/%ld", pid);
      if (pid > 0 && access(path, F_OK) != 0) {
        snprintf(path, sizeof path, "%s/%s", parent, entry->d_name);
        empty_dead(path);
      }
    }
    if (dir) closedir(dir);
    snprintf(path, sizeof path, "%s/" NAME_PREFIX "%d-probe", parent, (int)getpid());
    if (mkdir(path, 0755) != 0) {
      printf("no %s\n", parent);
      continue;
    }
    printf("ok %s", parent);
    dir = opendir(path);
    while (dir && (entry = readdir(dir)) != NULL) {
      if (entry->d_name[0] != '.') printf(" %s", entry->d_name);
    }
    if (dir) closedir(dir);
    printf("\n");
    rmdir(path);
  }
  return 0;
}

static int print_lines(const char *path, const char *prefix) {
  FILE *file = fopen(path, "re");
  if (!file) return 1;
  char *line = NULL;
  size_t size = 0;
  while (getline(&line, &size, file) >= 0) printf("%s %s", prefix, line);
  free(line);
  fclose(file);
  return 0;
}

static int tmpfs(const char *dir, const char *options) {
  return mount(NAME_PREFIX "workspace", dir, "tmpfs", MS_NOSUID | MS_NODEV, options);
}

/* A count argument of a helper mode: digits only, else -1. */
static long long count_arg(const char *text) {
  char *end;
  errno = 0;
  long long value = strtoll(text, &end, 10);
  return errno || end == text || *end != '\0' || value < 0 ? -1 : value;
}

/*
 * Opens DIR (O_PATH) for a mount or unmount when it is safe to: an absolute path that is its own
 * real path (a symlink swapped in anywhere on the way is refused) and, with OWN, a folder of this
 * process's user that no one else may write (a mounted workspace is the sandbox uid's by then).
 * Returns the descriptor, or -1 with the reason in ERR.
 */
static int safe_folder(const char *dir, int own, FILE *err) {
  char real[PATH_MAX];
  if (dir[0] != '/' || !realpath(dir, real) || strcmp(real, dir) != 0) {
    fprintf(err, "%s is not its own real path\n", dir);
    return -1;
  }
  int fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    fprintf(err, "%s: %s\n", dir, strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  /*
   * What was opened is what was named: a folder above it swapped for a symlink between the check
   * and the open leads the open elsewhere, and the descriptor's own path tells.
   */
  char link[32], opened[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t length = readlink(link, opened, sizeof opened - 1);
  if (length < 0 || (opened[length] = '\0', strcmp(opened, dir) != 0)) {
    fprintf(err, "%s changed while it was opened\n", dir);
    close(fd);
    return -1;
  }
  if (own && (st.st_uid != geteuid() || (st.st_mode & 022) != 0)) {
    fprintf(err, "%s is not a folder of this user that only it may write\n", dir);
    close(fd);
    return -1;
  }
  return fd;
}

/*
 * A folder closed to mounts by `umount-under` (see `close_folder`): one of this process's user with
 * the mode 01700 (the sticky bit on a folder only its owner may use, which changes nothing for the
 * owner, so the exiting process still removes what is in it).
 */
#define CLOSED_MODE 01700

static int closed_folder(const struct stat *st) {
  return st->st_uid == geteuid() && (st->st_mode & 07777) == CLOSED_MODE;
}

/* How many folders deep a mount may be (one descriptor held for each on the way). */
#define GUARD_DEPTH 256

/*
 * How long the locks of `guard_mount` or `close_folder` are waited for: each holds its lock for a
 * mount(2) or a read of the mount table, microseconds; a lock held longer (code under test may
 * flock a folder it can open) ends the wait, so no request and no exit hangs on it.
 */
#define LOCK_WAIT_S 10

static void on_alarm(int signal_number) {
  (void)signal_number;
}

/* From now on a wait for a lock ends (EINTR) after LOCK_WAIT_S; alarm(0) ends the bound. */
static void bound_lock_waits(void) {
  /* No SA_RESTART: the alarm interrupts flock. */
  struct sigaction alarm_action;
  memset(&alarm_action, 0, sizeof alarm_action);
  alarm_action.sa_handler = on_alarm;
  sigaction(SIGALRM, &alarm_action, NULL);
  alarm(LOCK_WAIT_S);
}

/* The walk of `guard_mount`. */
static int walk_up_locked(int fd, const char *dir, int *guards, int *count, FILE *err) {
  struct stat st, below;
  int at = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  while (at >= 0) {
    guards[(*count)++] = at;
    if (flock(at, LOCK_SH) != 0 || fstat(at, &st) != 0) break;
    if (*count > 1 && st.st_dev == below.st_dev && st.st_ino == below.st_ino) {
      close(guards[--*count]); /* Above the root: its ".." is itself. */
      return 0;
    }
    if (closed_folder(&st)) {
      fprintf(err, "%s: a folder on its path is closed to mounts (its process is exiting)\n", dir);
      return -1;
    }
    if (*count == GUARD_DEPTH) {
      fprintf(err, "%s: %d folders or more on its path\n", dir, GUARD_DEPTH);
      return -1;
    }
    below = st;
    at = openat(at, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  }
  fprintf(err, "%s: cannot lock the folders on its path: %s\n", dir, strerror(errno));
  return -1;
}

/*
 * Takes a shared lock (flock) on the folder FD and on every folder above it up to the root, and
 * fails when one of them is closed to mounts. The caller holds the locks (GUARDS, COUNT of them)
 * until its mount(2) has returned. `umount-under DIR` closes DIR under an exclusive lock before it
 * reads the mount table, so a mount below DIR either holds its lock first (the close waits for it
 * to land, and then detaches it) or takes it after the close and is refused: none lands after.
 */
static int guard_mount(int fd, const char *dir, int *guards, int *count, FILE *err) {
  bound_lock_waits();
  int result = walk_up_locked(fd, dir, guards, count, err);
  alarm(0);
  return result;
}

static int mount_workspace(int argc, char **argv, FILE *err) {
  if (argc != 5) return 2;
  long long bytes = count_arg(argv[2]), inodes = count_arg(argv[3]);
  if (bytes < 0 || inodes < 0) {
    fprintf(err, "mount-workspace needs BYTES INODES DIR\n");
    return 2;
  }
  char options[128], target[64];
  snprintf(options, sizeof options, "size=%lld,nr_inodes=%lld,mode=0700", bytes, inodes);
  int fd = safe_folder(argv[4], 1, err);
  if (fd < 0) return 1;
  int guards[GUARD_DEPTH], guarded = 0;
  if (guard_mount(fd, argv[4], guards, &guarded, err) != 0) {
    while (guarded > 0) close(guards[--guarded]);
    close(fd);
    return 1;
  }
  /* Through the descriptor: the folder checked is the folder mounted on. */
  snprintf(target, sizeof target, "/proc/self/fd/%d", fd);
  int mounted = tmpfs(target, options);
  int saved = errno;
  /* Only now may a close of a folder above go on: this mount is in the table it reads next. */
  while (guarded > 0) close(guards[--guarded]);
  close(fd);
  if (mounted != 0) {
    fprintf(err, "mount %s: %s\n", argv[4], strerror(saved));
    return 1;
  }
  return 0;
}

/* Unmounts the tmpfs on DIR (lazily when busy); anything else there stays. Never fails. */
static int umount_workspace(int argc, char **argv, FILE *err) {
  if (argc != 3) return 0;
  int fd = safe_folder(argv[2], 0, err);
  struct statfs fs;
  if (fd < 0) return 0;
  /*
   * Through the descriptor, as the mount is: the file system checked is the one detached, even if
   * the path leads elsewhere by then. The descriptor keeps it busy, so the detach is lazy; it is
   * freed when the descriptor closes, unless something else still holds it.
   */
  if (fstatfs(fd, &fs) == 0 && fs.f_type == 0x01021994 /* TMPFS_MAGIC */) {
    char target[32];
    snprintf(target, sizeof target, "/proc/self/fd/%d", fd);
    umount2(target, MNT_DETACH);
  }
  close(fd);
  return 0;
}

/*
 * Closes DIR to mounts (see `guard_mount`), when it is a folder of this process's user: waits for
 * an exclusive lock on it, so every mount request below it that holds its shared lock (one inside
 * mount(2) included) has landed, then sets its mode to CLOSED_MODE, which every later request
 * reads under its own lock and refuses. Returns the locked descriptor (or -1): the lock is held
 * until the mounts are detached.
 */
static int close_folder(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0) return -1;
  if (fstat(fd, &st) != 0 || st.st_uid != geteuid()) {
    close(fd);
    return -1;
  }
  /* Even without the lock (held too long), later requests are refused. */
  bound_lock_waits();
  flock(fd, LOCK_EX);
  alarm(0);
  fchmod(fd, CLOSED_MODE);
  return fd;
}

static int umount_under(const char *dir) {
  size_t length = strlen(dir);
  if (length < 2 || dir[0] != '/') return 2;
  int closed = close_folder(dir);
  FILE *file = fopen("/proc/self/mountinfo", "re");
  if (!file) {
    if (closed >= 0) close(closed);
    return 1;
  }
  char *line = NULL;
  size_t size = 0;
  while (getline(&line, &size, file) >= 0) {
    char *point = mount_point(line);
    if (!point) continue;
    if (strncmp(point, dir, length) == 0 && point[length] == '/') umount2(point, MNT_DETACH);
  }
  free(line);
  fclose(file);
  if (closed >= 0) close(closed);
  return 0;
}

static int mount_probe(void) {
  char dir[] = "/tmp/" NAME_PREFIX "probe-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  int ok = tmpfs(dir, "size=4096,nr_inodes=16") == 0 && umount2(dir, 0) == 0;
  rmdir(dir);
  return ok ? 0 : 1;
}

static int kill_each(int argc, char **argv) {
  for (int i = 2; i < argc; i++) {
    long pid = atol(argv[i]);
    /* Never everything (-1) nor this process's own group (0). */
    if (pid != 0 && pid != -1) kill((pid_t)pid, SIGKILL);
  }
  return 0;
}

/*
 * `waited`: what a run's clock reads (src/sandbox/run_clock.ts), on one line of three whole numbers
 * of milliseconds:
 *   - how long the threads of the processes listed in cgroup.procs files (`procs:FILE`; a run's
 *     cgroup holds all its processes) have waited for a CPU, added up (the second field of
 *     /proc/PID/task/TID/schedstat; a thread that ended took its wait along);
 *   - the run's CPU time as its cgroup counts it (`cpu:FILE`, a v1 cpuacct.usage or a v2
 *     cpu.stat: every process it ever held, however it ended or was reaped), or -1 without one;
 *   - how long the machine's CPUs have been idle, added up (/proc/stat: idle and iowait), or -1.
 * At most WAITED_TASKS processes are read.
 */
#define WAITED_TASKS 4096
static long long cgroup_cpu_ms(const char *file) {
  FILE *in = fopen(file, "re");
  if (!in) return -1;
  long long ms = -1;
  unsigned long long value;
  char key[64];
  if (ends_with(file, "/cpuacct.usage")) {
    if (fscanf(in, "%llu", &value) == 1) ms = (long long)(value / 1000000);
  } else {
    while (fscanf(in, "%63s %llu", key, &value) == 2) {
      if (strcmp(key, "usage_usec") == 0) {
        ms = (long long)(value / 1000);
        break;
      }
    }
  }
  fclose(in);
  return ms;
}

static int waited(int argc, char **argv, FILE *out, FILE *err) {
  unsigned long long waited_ns = 0;
  long long cpu_ms = -1;
  long seen = 0;
  for (int i = 2; i < argc; i++) {
    const char *colon = strchr(argv[i], ':');
    int cpu = starts_with(argv[i], "cpu:") &&
              (ends_with(argv[i], "/cpuacct.usage") || ends_with(argv[i], "/cpu.stat"));
    if (!colon || !cgroup_path(colon + 1) || !(starts_with(argv[i], "procs:") || cpu)) {
      fprintf(err, "patchgym: waited: \"%s\" is neither procs:FILE nor cpu:FILE of a cgroup\n", argv[i]);
      return 1;
    }
    if (cpu) {
      cpu_ms = cgroup_cpu_ms(colon + 1);
      continue;
    }
    FILE *procs = fopen(colon + 1, "re");
    long pid;
    /* Another PID namespace's processes are listed as 0. */
    while (procs && seen < WAITED_TASKS && fscanf(procs, "%ld", &pid) == 1) {
      if (pid <= 0) continue;
      seen++;
      char path[96];
      snprintf(path, sizeof path, "/proc/%ld/task", pid);
      DIR *tasks = opendir(path);
      if (!tasks) continue;
      for (struct dirent *task; (task = readdir(tasks)) != NULL;) {
        if (task->d_name[0] < '0' || task->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%ld/task/%.16s/schedstat", pid, task->d_name);
        FILE *file = fopen(path, "re");
        unsigned long long ran, wait;
        if (file && fscanf(file, "%llu %llu", &ran, &wait) == 2) waited_ns += wait;
        if (file) fclose(file);
      }
      closedir(tasks);
    }
    if (procs) fclose(procs);
  }
  long tick = sysconf(_SC_CLK_TCK);
  long long idle_ms = -1;
  FILE *machine = fopen("/proc/stat", "re");
  char line[512];
  unsigned long long idle, iowait;
  if (machine && tick > 0 && fgets(line, sizeof line, machine) && strncmp(line, "cpu ", 4) == 0 &&
      sscanf(line + 4, "%*u %*u %*u %llu %llu", &idle, &iowait) == 2) {
    idle_ms = (long long)((idle + iowait) * 1000 / (unsigned long long)tick);
  }
  if (machine) fclose(machine);
  fprintf(out, "%llu %lld %lld\n", waited_ns / 1000000, cpu_ms, idle_ms);
  return 0;
}

/*
 * Removes DIR whatever the sandbox's code left in it: names that are not UTF-8 (which the
 * orchestrator cannot name) and chains deeper than a thread's stack, by GNU rm, which walks by
 * folder handles; never into another file system.
 */
static int exec_tool(char **args) {
  char path[PATH_MAX];
  int saved = ENOENT;
  for (const char *dirs = CHILD_PATH; *dirs;) {
    size_t length = strcspn(dirs, ":");
    if (snprintf(path, sizeof path, "%.*s/%s", (int)length, dirs, args[0]) < (int)sizeof path) {
      execve(path, args, environ);
      if (errno != ENOENT) saved = errno;
    }
    dirs += length + (dirs[length] == ':');
  }
  fprintf(stderr, "cannot run %s from %s: %s\n", args[0], CHILD_PATH, strerror(saved));
  return 127;
}

static int rmtree(const char *dir) {
  /* First the owner's access back (without root, a folder closed with chmod 0 stops rm). */
  char *reopen[] = {"chmod", "-R", "u+rwx", "--", (char *)dir, NULL};
  pid_t pid = fork();
  if (pid == 0) _exit(exec_tool(reopen));
  if (pid > 0) while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
  char *remove[] = {"rm", "-rf", "--one-file-system", "--", (char *)dir, NULL};
  return exec_tool(remove);
}

/* The helper modes `serve` answers: none starts a program or reads more than it is given. */
static int served_mode(int argc, char **argv, FILE *out, FILE *err) {
  const char *mode = argv[1];
  if (strcmp(mode, "sweep") == 0) return sweep(argc, argv, out, err);
  if (strcmp(mode, "mount-workspace") == 0) return mount_workspace(argc, argv, err);
  if (strcmp(mode, "umount") == 0) return umount_workspace(argc, argv, err);
  if (strcmp(mode, "kill") == 0) return kill_each(argc, argv);
  if (strcmp(mode, "waited") == 0) return waited(argc, argv, out, err);
  fprintf(err, "unknown mode \"%s\"\n", mode);
  return 2;
}

#define SERVE_FIELDS 256
#define SERVE_LINE 65536
#define SERVE_PENDING 4096

/* One answer in one write (atomic on a pipe up to PIPE_BUF): output and messages cut to fit. */
static void answer(const char *id, int status, const char *text, size_t out_length,
                   const char *errors, size_t err_length) {
  char reply[PIPE_BUF];
  int head = snprintf(reply, sizeof reply, "%s %d %zu %zu\n", id, status, (size_t)0, (size_t)0);
  size_t room = sizeof reply - (size_t)head - 48;
  if (err_length > room / 2) err_length = room / 2;
  if (out_length > room - err_length) out_length = room - err_length;
  head = snprintf(reply, sizeof reply, "%s %d %zu %zu\n", id, status, out_length, err_length);
  memcpy(reply + head, text, out_length);
  memcpy(reply + head + out_length, errors, err_length);
  size_t length = (size_t)head + out_length + err_length;
  for (size_t done = 0; done < length;) {
    ssize_t n = write(1, reply + done, length - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += (size_t)n;
  }
}

/*
 * Runs one request line (split in place) in a process of its own, which answers it; returns 0 for
 * a sweep answered at once (`sweep_at_once`).
 */
static pid_t serve_one(char *line, char *id) {
  char *fields[SERVE_FIELDS + 1];
  int count = 0;
  fields[count++] = "patchgym_launch";
  for (char *field = strchr(line, '\t'); field && count < SERVE_FIELDS; field = strchr(field, '\t')) {
    *field++ = '\0';
    fields[count++] = field;
  }
  fields[count] = NULL;
  if (count >= 2 && strcmp(fields[1], "sweep") == 0 && sweep_at_once(count, fields, id)) return 0;
  pid_t pid = fork();
  if (pid != 0) return pid;
  char *text = NULL, *errors = NULL;
  size_t out_length = 0, err_length = 0;
  FILE *out = open_memstream(&text, &out_length), *err = open_memstream(&errors, &err_length);
  if (!out || !err) _exit(1);
  int status = count < 2 ? 2 : served_mode(count, fields, out, err);
  fclose(out);
  fclose(err);
  answer(id, status, text, out_length, errors, err_length);
  _exit(0);
}

/*
 * What `serve` keeps of root's power: mounts (SYS_ADMIN), kills of sandbox uids (KILL), and the
 * cgroup and workspace files and folders of other users (DAC_OVERRIDE, DAC_READ_SEARCH, FOWNER).
 * It never execs, so the bounding set goes whole; no process of the same user may read its memory
 * or descriptors (not dumpable), and nothing it could run would gain privileges.
 */
static int serve_privileges(void) {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
    return -1;
  }
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capget, &header, data) != 0) return -1;
  __u32 keep = 1U << CAP_SYS_ADMIN | 1U << CAP_KILL | 1U << CAP_DAC_OVERRIDE |
               1U << CAP_DAC_READ_SEARCH | 1U << CAP_FOWNER;
  /* Only what it has now can be kept (an unprivileged user has none). */
  data[0].effective = data[0].permitted = data[0].permitted & keep;
  data[0].inheritable = 0;
  data[1].effective = data[1].permitted = data[1].inheritable = 0;
  if (geteuid() == 0 || data[0].permitted != 0) {
    for (int cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++) {
      if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EPERM) return -1;
    }
  }
  return syscall(SYS_capset, &header, data) == 0 ? 0 : -1;
}

/* A process of `serve`'s or `runs`' answering one request: its pid (0: a free slot), the
 * request's id, and (`runs`, a jail made ahead) the write end of its run's control pipe. */
struct served_child {
  pid_t pid;
  char id[24];
  int control;
};

/*
 * Reap the processes of `pending` that ended; each that died without answering is answered for
 * by `died`. Returns how many ended.
 */
static int reap_served(struct served_child *pending, void (*died)(const char *id)) {
  int status, ended = 0;
  pid_t done;
  while ((done = waitpid(-1, &status, WNOHANG)) > 0) {
    for (int i = 0; i < SERVE_PENDING; i++) {
      if (pending[i].pid != done) continue;
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) died(pending[i].id);
      if (pending[i].control > 0) close(pending[i].control);
      pending[i].control = 0;
      pending[i].pid = 0;
      ended++;
      break;
    }
  }
  return ended;
}

static void helper_died(const char *id) {
  const char *said = "patchgym: the helper's process died";
  answer(id, 1, "", 0, said, strlen(said));
}

/*
 * The request loop of `serve`. Every request but an emptied cgroup's sweep runs in a child; the
 * loop remembers which, and answers for a child that died without answering (status 1), so no
 * request waits forever.
 */
static int serve(void) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) return 0;
  /* Without its reduced privileges it serves nothing: each request then runs one-shot. */
  if (serve_privileges() != 0) return 1;
  signal(SIGPIPE, SIG_IGN);
  static char buffer[SERVE_LINE];
  static struct served_child pending[SERVE_PENDING];
  size_t used = 0;
  int open_input = 1, running = 0;
  while (open_input) {
    struct pollfd input = {0, POLLIN, 0};
    /* Children are looked after every 50 ms while there are any; otherwise it sleeps on stdin. */
    int ready = poll(&input, 1, running > 0 ? 50 : -1);
    running -= reap_served(pending, helper_died);
    if (ready <= 0) continue;
    ssize_t n = read(0, buffer + used, sizeof buffer - used);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    used += (size_t)n;
    char *start = buffer, *end;
    while ((end = memchr(start, '\n', used - (size_t)(start - buffer))) != NULL) {
      /* A NUL would cut an argument short (or the id): not a request of ours, stop. */
      if (memchr(start, '\0', (size_t)(end - start)) != NULL) {
        open_input = 0;
        break;
      }
      *end = '\0';
      char *tab = strchr(start, '\t');
      char id[24];
      size_t id_length = tab ? (size_t)(tab - start) : strlen(start);
      if (id_length == 0 || id_length >= sizeof id) {
        open_input = 0; /* Not a request of ours: stop. */
        break;
      }
      memcpy(id, start, id_length);
      id[id_length] = '\0';
      int slot = -1;
      for (int i = 0; i < SERVE_PENDING && slot < 0; i++) if (pending[i].pid == 0) slot = i;
      pid_t pid = slot < 0 ? -1 : serve_one(start, id);
      if (pid < 0) {
        const char *said = "patchgym: the helper cannot fork";
        answer(id, 1, "", 0, said, strlen(said));
      } else if (pid > 0) { /* 0: answered at once. */
        pending[slot].pid = pid;
        memcpy(pending[slot].id, id, sizeof id);
        running++;
      }
      start = end + 1;
    }
    used -= (size_t)(start - buffer);
    memmove(buffer, start, used);
    if (used == sizeof buffer) break; /* A line longer than any request. */
  }
  return 0;
}

/*
 * `runs`: the runs of one orchestrator thread, each from its spawn to its last byte, so that the
 * orchestrator makes no process, pipe or read of its own per run (src/sandbox/_runner.ts). It
 * reads requests on stdin, each a line "ID KIND LENGTH\n" and LENGTH bytes:
 *   blob   bytes kept under ID, for a later run's stdin (the reporter's source, the same each run)
 *   run    NUL-ended fields: the folder, the output cap (bytes per stream, half head, half tail),
 *          "1" to kill the first process's group once it exits (else "0"), "1" for a piped stdin
 *          (else "0": /dev/null), the count of stdin's parts and each part: a blob's id, or "-"
 *          (once) for the rest of the request, the count of the arguments and the arguments
 *          (argv[0] names this launcher), the count of the environment's NAME=VALUE and them, the
 *          count of the sweep's arguments (`sweep` mode's) and them; the rest is the part of stdin
 *          that "-" stands for
 *   ahead  a run's fields, for a jail made ahead (the launcher's `await` step): its stdin waits
 *          for a `go` of the same ID, and its process says "ID ready" once the launcher says it is
 *          ready on stderr; that line and the one after it ("patchgym: run") are taken off stderr
 *          and reported at the end (see `markers_take`)
 *   go     the run of the jail made ahead ID (the bytes `await` reads), handed to its process on a
 *          pipe of its own and then closed; empty: none is needed (stdin closes with nothing)
 * A run's process forks the launcher (this file, in launch mode: it execs nothing else) with the
 * run's folder, environment and three pipes; says "ID pid PID" once it exec'd (or "ID fail" and
 * why); writes stdin while it reads both streams with the cap; once the launcher's process exits
 * and is reaped, says "ID exit", gives stdin half a second more, kills the process group when
 * asked, runs the sweep in itself, reads for half a second more what is still open, and answers
 * with
 *   "CODE SIGNAL OUTTOTAL OUTHEAD OUTTAIL ERRTOTAL ERRHEAD ERRTAIL SWEEP SWEEPOUT SWEEPERR READY
 *   TAKEN\n" (SIGNAL 0: it exited; SWEEP -1: none; READY, TAKEN: the markers of `ahead`, 0 or 1)
 * and those bytes: the head and tail kept of stdout, of stderr, then the sweep's output and
 * messages. Every answer goes as chunks, each one write of at most PIPE_BUF: "ID more LENGTH\n" and
 * LENGTH bytes, the last "ID end LENGTH\n" and LENGTH bytes. A run's process that dies without its
 * last chunk is answered "ID fail" by the server. The timeout and the kill stay with the
 * orchestrator (`kill` mode of `serve`), which knows the pid. `runs` keeps root's power (the
 * launcher needs it) and execs only itself.
 */
#define RUNS_BLOBS 64
#define RUNS_MAX ((size_t)1 << 30)
#define RUNS_GRACE_S 0.5
#define RUNS_READ 16384
static struct { long id; char *data; size_t length; } run_blobs[RUNS_BLOBS];

/* Writes ID's answer of KIND as chunks of at most PIPE_BUF bytes, the last one KIND. */
static void runs_answer(const char *id, const char *kind, const char *data, size_t length) {
  char chunk[PIPE_BUF];
  for (size_t done = 0;;) {
    int head = snprintf(chunk, sizeof chunk, "%s more %d\n", id, 0);
    size_t room = sizeof chunk - (size_t)head - 16;
    size_t part = length - done > room ? room : length - done;
    int last = done + part == length;
    head = snprintf(chunk, sizeof chunk, "%s %s %zu\n", id, last ? kind : "more", part);
    memcpy(chunk + head, data + done, part);
    for (size_t at = 0, total = (size_t)head + part; at < total;) {
      ssize_t n = write(1, chunk + at, total - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      at += (size_t)n;
    }
    done += part;
    if (last) return;
  }
}

static void runs_fail(const char *id, const char *format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof text, format, args);
  va_end(args);
  runs_answer(id, "fail", text, strlen(text));
}

/* A stream read with a cap: its first HEAD_CAP bytes, and the last TAIL_CAP of the rest. */
struct capped {
  char *head, *tail;
  size_t head_cap, tail_cap, head_length, tail_seen, total;
};

static void capped_add(struct capped *c, const char *data, size_t n) {
  c->total += n;
  size_t room = c->head_cap - c->head_length, take = n < room ? n : room;
  memcpy(c->head + c->head_length, data, take);
  c->head_length += take;
  data += take;
  n -= take;
  if (n == 0 || c->tail_cap == 0) return;
  if (n > c->tail_cap) {
    c->tail_seen += n - c->tail_cap;
    data += n - c->tail_cap;
    n = c->tail_cap;
  }
  /* A ring: byte K of what followed the head is at K % TAIL_CAP. */
  size_t at = c->tail_seen % c->tail_cap, first = c->tail_cap - at < n ? c->tail_cap - at : n;
  memcpy(c->tail + at, data, first);
  memcpy(c->tail, data + first, n - first);
  c->tail_seen += n;
}

/* The tail kept, in order, into OUT; returns its length. */
static size_t capped_tail(const struct capped *c, char *out) {
  if (c->tail_seen <= c->tail_cap) {
    memcpy(out, c->tail, c->tail_seen);
    return c->tail_seen;
  }
  size_t at = c->tail_seen % c->tail_cap;
  memcpy(out, c->tail + at, c->tail_cap - at);
  memcpy(out + c->tail_cap - at, c->tail, at);
  return c->tail_cap;
}

/* The next NUL-ended field of a request, or NULL past its end. */
static char *next_field(char **at, char *end) {
  if (*at >= end) return NULL;
  char *field = *at, *nul = memchr(field, '\0', (size_t)(end - field));
  if (!nul) return NULL;
  *at = nul + 1;
  return field;
}

/* COUNT fields after a count field, as a NULL-ended list (NULL when the request is short). */
static char **field_list(char **at, char *end) {
  char *count_text = next_field(at, end);
  long count = count_text ? strtol(count_text, NULL, 10) : -1;
  if (count < 0 || count > 1 << 20) return NULL;
  char **list = calloc((size_t)count + 1, sizeof *list);
  for (long i = 0; list && i < count; i++) {
    if (!(list[i] = next_field(at, end))) return NULL;
  }
  return list;
}

static int nonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

/*
 * The markers a jail made ahead says first on stderr (`await_run`): READY, then TAKEN, taken off
 * the output as the orchestrator's reader did (src/sandbox/_child.ts, `CappedReader`): from the first
 * byte that is not the next marker on, everything is output. NEXT: the marker still expected (2:
 * none); HELD: the start of the stream while it may still be that marker.
 */
struct markers {
  int next, ready, taken;
  char held[32];
  size_t held_length;
  const char *id;
};

static void markers_take(struct markers *m, struct capped *c, const char *data, size_t n) {
  static const char *const list[2] = {READY, TAKEN};
  char start[RUNS_READ + sizeof m->held];
  while (m->next < 2 && n > 0) {
    size_t length = m->held_length + n;
    if (length > sizeof start) length = sizeof start;
    memcpy(start, m->held, m->held_length);
    memcpy(start + m->held_length, data, length - m->held_length);
    const char *marker = list[m->next];
    size_t marker_length = strlen(marker), compared = length < marker_length ? length : marker_length;
    int same = memcmp(start, marker, compared) == 0;
    if (same && length < marker_length) {
      memcpy(m->held, start, length);
      m->held_length = length;
      return;
    }
    size_t from_data = length - m->held_length; /* what of DATA START holds */
    m->held_length = 0;
    if (!same) {
      m->next = 2;
      capped_add(c, start, length);
      data += from_data;
      n -= from_data;
      break;
    }
    if (m->next++ == 0) {
      m->ready = 1;
      runs_answer(m->id, "ready", "", 0);
    } else {
      m->taken = 1;
    }
    /* What follows the marker: the rest of DATA (the held part was the marker's start). */
    size_t after = length - marker_length;
    data += from_data - after;
    n -= from_data - after;
  }
  if (n > 0) capped_add(c, data, n);
}

/* Reads what FD has into C (through M, where it is given); closes it (-1) at its end. */
static void read_into(int *fd, struct capped *c, struct markers *m) {
  char chunk[RUNS_READ];
  for (;;) {
    ssize_t n = read(*fd, chunk, sizeof chunk);
    if (n > 0) {
      if (m) markers_take(m, c, chunk, (size_t)n);
      else capped_add(c, chunk, (size_t)n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    close(*fd);
    *fd = -1;
    /* A start held as a marker's, at the end: output after all. */
    if (m && m->held_length > 0) capped_add(c, m->held, m->held_length);
    if (m) m->held_length = 0;
    return;
  }
}

/*
 * One run, in a process of its own (see `runs`); SELF is this launcher's path. CONTROL >= 0: a jail
 * made ahead, whose run (its stdin) comes on CONTROL, whole once it closes: nothing, when none is
 * needed after all (stdin then closes with nothing on it).
 */
static void run_one(const char *id, char *payload, size_t length, const char *self, int control) {
  char *at = payload, *end = payload + length;
  char *cwd = next_field(&at, end), *cap_text = next_field(&at, end);
  char *group_text = next_field(&at, end), *piped_text = next_field(&at, end);
  char **blob_ids = field_list(&at, end), **args = field_list(&at, end);
  char **env = field_list(&at, end), **sweep_args = field_list(&at, end);
  if (!cwd || !cap_text || !group_text || !piped_text || !blob_ids || !args || !args[0] || !env ||
      !sweep_args) {
    runs_fail(id, "patchgym: a malformed run request");
    return;
  }
  /* What stdin gets: the blobs named, in order, and the rest of the request where "-" stands. */
  size_t parts = 0, rests = 0;
  while (blob_ids[parts]) parts++;
  struct iovec *input = calloc(parts + 1, sizeof *input);
  if (!input) _exit(1);
  for (size_t i = 0; i < parts; i++) {
    if (strcmp(blob_ids[i], "-") == 0) {
      input[i] = (struct iovec){at, (size_t)(end - at)};
      rests++;
      continue;
    }
    long wanted = strtol(blob_ids[i], NULL, 10);
    int found = 0;
    for (int k = 0; k < RUNS_BLOBS && !found; k++) {
      if (run_blobs[k].data && run_blobs[k].id == wanted) {
        input[i] = (struct iovec){run_blobs[k].data, run_blobs[k].length};
        found = 1;
      }
    }
    if (!found) {
      runs_fail(id, "patchgym: the run names a blob the server does not have");
      return;
    }
  }
  if (rests != 1) {
    runs_fail(id, "patchgym: a malformed run request");
    return;
  }
  int piped = strcmp(piped_text, "1") == 0;
  size_t cap = (size_t)strtoull(cap_text, NULL, 10);
  struct capped streams[2];
  for (int s = 0; s < 2; s++) {
    streams[s] = (struct capped){malloc(cap / 2 + cap % 2 + 1), malloc(cap / 2 + 1),
                                 cap / 2 + cap % 2, cap / 2, 0, 0, 0};
    if (!streams[s].head || !streams[s].tail) _exit(1);
  }
  int in[2] = {-1, -1}, out[2], err[2], check[2];
  if ((piped && pipe2(in, O_CLOEXEC) != 0) || pipe2(out, O_CLOEXEC) != 0 ||
      pipe2(err, O_CLOEXEC) != 0 || pipe2(check, O_CLOEXEC) != 0) {
    runs_fail(id, "patchgym: cannot make the run's pipes: %s", strerror(errno));
    return;
  }
  pid_t pid = fork();
  if (pid < 0) {
    runs_fail(id, "patchgym: cannot fork the run: %s", strerror(errno));
    return;
  }
  if (pid == 0) {
    /* What a spawn gives: default signals, none blocked, the three pipes and nothing else. */
    for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int stdin_fd = piped ? in[0] : open("/dev/null", O_RDONLY | O_CLOEXEC);
    int error = 0;
    if (stdin_fd < 0 || dup2(stdin_fd, 0) != 0 || dup2(out[1], 1) != 1 || dup2(err[1], 2) != 2 ||
        dup3(check[1], 3, O_CLOEXEC) != 3) {
      error = errno;
    } else if (chdir(cwd) != 0) {
      error = errno;
    } else {
#ifdef SYS_close_range
      syscall(SYS_close_range, 4U, ~0U, 0U);
#endif
      execve(self, args, env);
      error = errno;
    }
    int report = fcntl(3, F_GETFD) >= 0 ? 3 : check[1];
    if (write(report, &error, sizeof error) < 0) {}
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  close(check[1]);
  if (piped) close(in[0]);
  int error = 0;
  ssize_t said;
  while ((said = read(check[0], &error, sizeof error)) < 0 && errno == EINTR) {}
  close(check[0]);
  if (said > 0) {
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    runs_fail(id, "cannot run %s in %s: %s", self, cwd, strerror(error));
    return;
  }
  char line[64];
  int line_length = snprintf(line, sizeof line, "%d", (int)pid);
  runs_answer(id, "pid", line, (size_t)line_length);
  int fds[3] = {out[0], err[0], piped ? in[1] : -1};
  for (int i = 0; i < 3; i++) if (fds[i] >= 0) nonblocking(fds[i]);
  struct markers marks = {control >= 0 ? 0 : 2, 0, 0, {0}, 0, id};
  char *run_bytes = NULL;
  size_t run_length = 0, run_room = 0;
  if (control >= 0) parts = 0; /* Nothing to write before the run comes. */
#ifdef SYS_pidfd_open
  int exit_fd = (int)syscall(SYS_pidfd_open, pid, 0);
#else
  int exit_fd = -1;
#endif
  size_t part = 0, offset = 0;
  int status = 0, exited = 0, swept = 0;
  double write_until = 0, read_until = 0;
  char *sweep_text = NULL, *sweep_errors = NULL;
  size_t sweep_length = 0, sweep_err_length = 0;
  int sweep_status = -1;
  for (;;) {
    struct pollfd polls[5];
    int count = 0, order[5];
    for (int i = 0; i < 3; i++) {
      /* A jail made ahead's stdin waits for its run. */
      if (fds[i] < 0 || (i == 2 && control >= 0)) continue;
      polls[count] = (struct pollfd){fds[i], i == 2 ? POLLOUT : POLLIN, 0};
      order[count++] = i;
    }
    if (control >= 0) {
      polls[count] = (struct pollfd){control, POLLIN, 0};
      order[count++] = 4;
    }
    if (!exited && exit_fd >= 0) {
      polls[count] = (struct pollfd){exit_fd, POLLIN, 0};
      order[count++] = 3;
    }
    int wait_ms = -1;
    if (exited) {
      double left = (swept ? read_until : write_until) - monotonic_s();
      wait_ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
    } else if (exit_fd < 0) {
      wait_ms = 20;
    }
    if (!exited || (!swept && fds[2] >= 0) || (swept && (fds[0] >= 0 || fds[1] >= 0))) {
      if (poll(polls, (nfds_t)count, wait_ms) < 0 && errno != EINTR) _exit(1);
    }
    for (int k = 0; k < count; k++) {
      int i = order[k];
      if (i == 3 || !polls[k].revents) continue;
      if (i < 2) {
        read_into(&fds[i], &streams[i], i == 1 && marks.next < 2 ? &marks : NULL);
        continue;
      }
      if (i == 4) {
        /*
         * The run, to its end: then stdin gets it (or, with none, closes). Past what `await`
         * reads, the rest is read and dropped: the launcher says the run is too long itself.
         */
        if (run_length == run_room && run_room <= AWAIT_MAX) {
          run_room = run_room ? run_room * 2 : 65536;
          if (run_room > AWAIT_MAX + 1) run_room = AWAIT_MAX + 1;
          char *grown = realloc(run_bytes, run_room);
          if (!grown) _exit(1);
          run_bytes = grown;
        }
        char dropped[4096];
        int full = run_length == run_room;
        ssize_t n = full ? read(control, dropped, sizeof dropped)
                         : read(control, run_bytes + run_length, run_room - run_length);
        if (full && n > 0) continue;
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n > 0) {
          run_length += (size_t)n;
          continue;
        }
        close(control);
        control = -1;
        input[0] = (struct iovec){run_bytes, run_length};
        parts = run_length > 0 ? 1 : 0;
        if (parts == 0 && fds[2] >= 0) {
          close(fds[2]);
          fds[2] = -1;
        }
        continue;
      }
      /* stdin: what is left of it, as far as the pipe takes it. */
      while (part < parts) {
        ssize_t n = write(fds[2], (char *)input[part].iov_base + offset, input[part].iov_len - offset);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) break;
        if (n < 0) {
          part = parts; /* It stopped reading: the run goes on without the rest. */
          break;
        }
        offset += (size_t)n;
        if (offset == input[part].iov_len) part++, offset = 0;
      }
      if (part == parts) {
        close(fds[2]);
        fds[2] = -1;
      }
    }
    if (!exited) {
      pid_t done;
      while ((done = waitpid(pid, &status, WNOHANG)) < 0 && errno == EINTR) {}
      if (done == pid) {
        exited = 1;
        write_until = monotonic_s() + RUNS_GRACE_S;
        /* Ended before its run came: nothing is written to it. */
        if (control >= 0) {
          close(control);
          control = -1;
          if (fds[2] >= 0) close(fds[2]);
          fds[2] = -1;
        }
        /* Said at once: the orchestrator's clock stops, and its pid is never killed again. */
        runs_answer(id, "exit", "", 0);
      }
      continue;
    }
    if (!swept && (fds[2] < 0 || monotonic_s() >= write_until)) {
      if (fds[2] >= 0) close(fds[2]);
      fds[2] = -1;
      /* What it left behind dies with it: its process group, else its cgroup (the sweep). */
      if (strcmp(group_text, "1") == 0) kill(-pid, SIGKILL);
      int sweep_count = 0;
      while (sweep_args[sweep_count]) sweep_count++;
      if (sweep_count > 0) {
        char **sweep_argv = calloc((size_t)sweep_count + 3, sizeof *sweep_argv);
        FILE *sweep_out = open_memstream(&sweep_text, &sweep_length);
        FILE *sweep_err = open_memstream(&sweep_errors, &sweep_err_length);
        if (!sweep_argv || !sweep_out || !sweep_err) _exit(1);
        sweep_argv[0] = "patchgym_launch";
        sweep_argv[1] = "sweep";
        for (int i = 0; i < sweep_count; i++) sweep_argv[i + 2] = sweep_args[i];
        sweep_status = sweep(sweep_count + 2, sweep_argv, sweep_out, sweep_err);
        fclose(sweep_out);
        fclose(sweep_err);
      }
      swept = 1;
      read_until = monotonic_s() + RUNS_GRACE_S;
    }
    if (swept && ((fds[0] < 0 && fds[1] < 0) || monotonic_s() >= read_until)) break;
  }
  /* A start still held as a marker's, its stream not ended: output after all. */
  if (marks.held_length > 0) capped_add(&streams[1], marks.held, marks.held_length);
  char head[256];
  int head_length = snprintf(
      head, sizeof head, "%d %d %zu %zu %zu %zu %zu %zu %d %zu %zu %d %d\n",
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
      WIFSIGNALED(status) ? WTERMSIG(status) : 0, streams[0].total, streams[0].head_length,
      streams[0].tail_seen < streams[0].tail_cap ? streams[0].tail_seen : streams[0].tail_cap,
      streams[1].total, streams[1].head_length,
      streams[1].tail_seen < streams[1].tail_cap ? streams[1].tail_seen : streams[1].tail_cap,
      sweep_status, sweep_text ? sweep_length : 0, sweep_errors ? sweep_err_length : 0,
      marks.ready, marks.taken);
  size_t total = (size_t)head_length + 2 * cap + 4 + sweep_length + sweep_err_length;
  char *answer_bytes = malloc(total), *to = answer_bytes;
  if (!answer_bytes) _exit(1);
  memcpy(to, head, (size_t)head_length);
  to += head_length;
  for (int s = 0; s < 2; s++) {
    memcpy(to, streams[s].head, streams[s].head_length);
    to += streams[s].head_length;
    to += capped_tail(&streams[s], to);
  }
  if (sweep_text) memcpy(to, sweep_text, sweep_length), to += sweep_length;
  if (sweep_errors) memcpy(to, sweep_errors, sweep_err_length), to += sweep_err_length;
  runs_answer(id, "end", answer_bytes, (size_t)(to - answer_bytes));
}

static void run_died(const char *id) {
  runs_fail(id, "patchgym: the run's process died");
}

/* The request loop of `runs`: blobs kept here, each run in a process of its own. */
static int runs(void) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) return 0;
  /* No process of the same user may read its memory or descriptors. */
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return 1;
  signal(SIGPIPE, SIG_IGN);
  static char self[PATH_MAX];
  ssize_t self_length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (self_length <= 0) return 1;
  self[self_length] = '\0';
  static struct served_child pending[SERVE_PENDING];
  size_t room = SERVE_LINE, used = 0;
  char *buffer = malloc(room);
  if (!buffer) return 1;
  int running = 0;
  /*
   * Woken by a run's process ending (SIGCHLD, read from a signalfd) rather than every 50 ms while
   * any runs: a jail made ahead may wait a minute for its run. Where there is no signalfd, the
   * 50 ms look as before. A run's launcher starts with no signal blocked (see `run_one`).
   */
  sigset_t child_ended;
  sigemptyset(&child_ended);
  sigaddset(&child_ended, SIGCHLD);
  int ended_fd = -1;
  if (sigprocmask(SIG_BLOCK, &child_ended, NULL) == 0) {
    ended_fd = signalfd(-1, &child_ended, SFD_CLOEXEC | SFD_NONBLOCK);
    if (ended_fd < 0) sigprocmask(SIG_UNBLOCK, &child_ended, NULL);
  }
  for (;;) {
    struct pollfd inputs[2] = {{0, POLLIN, 0}, {ended_fd, POLLIN, 0}};
    int ready = poll(inputs, ended_fd >= 0 ? 2 : 1, running > 0 && ended_fd < 0 ? 50 : -1);
    if (ended_fd >= 0 && ready > 0 && inputs[1].revents) {
      struct signalfd_siginfo said[16];
      while (read(ended_fd, said, sizeof said) > 0) {}
    }
    ready = ready > 0 && inputs[0].revents ? 1 : 0;
    running -= reap_served(pending, run_died);
    if (ready <= 0) continue;
    ssize_t n = read(0, buffer + used, room - used);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    used += (size_t)n;
    for (;;) {
      char *newline = memchr(buffer, '\n', used < 64 ? used : 64);
      if (!newline) {
        if (used >= 64) return 0; /* Not a request of ours: stop. */
        break;
      }
      char id[24], kind[8];
      unsigned long long length;
      int consumed = 0;
      *newline = '\0';
      if (sscanf(buffer, "%23[0-9] %7[a-z] %llu%n", id, kind, &length, &consumed) != 3 ||
          buffer + consumed != newline || length > RUNS_MAX) {
        return 0;
      }
      size_t whole = (size_t)(newline - buffer) + 1 + (size_t)length;
      if (used < whole) {
        *newline = '\n';
        if (whole > room) {
          char *grown = realloc(buffer, whole);
          if (!grown) return 1;
          buffer = grown;
          room = whole;
        }
        break;
      }
      char *payload = newline + 1;
      if (strcmp(kind, "blob") == 0) {
        int slot = -1;
        for (int k = 0; k < RUNS_BLOBS && slot < 0; k++) if (!run_blobs[k].data) slot = k;
        if (slot < 0) return 0; /* More blobs than any orchestrator sends. */
        run_blobs[slot].data = malloc((size_t)length + 1);
        if (!run_blobs[slot].data) return 1;
        memcpy(run_blobs[slot].data, payload, (size_t)length);
        run_blobs[slot].length = (size_t)length;
        run_blobs[slot].id = strtol(id, NULL, 10);
      } else if (strcmp(kind, "go") == 0) {
        /* A jail made ahead's run (nothing: none is needed), handed to its process whole. */
        for (int i = 0; i < SERVE_PENDING; i++) {
          if (pending[i].pid == 0 || pending[i].control <= 0 || strcmp(pending[i].id, id) != 0) {
            continue;
          }
          for (size_t at = 0; at < (size_t)length;) {
            ssize_t n = write(pending[i].control, payload + at, (size_t)length - at);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            at += (size_t)n;
          }
          close(pending[i].control);
          pending[i].control = 0;
          break;
        }
      } else if (strcmp(kind, "run") == 0 || strcmp(kind, "ahead") == 0) {
        int slot = -1;
        for (int i = 0; i < SERVE_PENDING && slot < 0; i++) if (pending[i].pid == 0) slot = i;
        int control[2] = {-1, -1};
        if (kind[0] == 'a' && slot >= 0 && pipe2(control, O_CLOEXEC) != 0) slot = -1;
        pid_t pid = slot < 0 ? -1 : fork();
        if (pid == 0) {
          if (ended_fd >= 0) close(ended_fd);
          /* Only its own run's control pipe: another's would never see its end. */
          for (int i = 0; i < SERVE_PENDING; i++) if (pending[i].control > 0) close(pending[i].control);
          if (control[1] >= 0) close(control[1]);
          /*
           * It holds the answers' pipe itself: a run under way ends, is swept and is answered as
           * any other, whether the server is still there or not.
           */
          run_one(id, payload, (size_t)length, self, control[0]);
          _exit(0);
        }
        if (control[0] >= 0) close(control[0]);
        if (pid < 0) {
          if (control[1] >= 0) close(control[1]);
          runs_fail(id, "patchgym: the run server cannot fork");
        } else {
          pending[slot].pid = pid;
          memcpy(pending[slot].id, id, sizeof id);
          pending[slot].control = control[1] >= 0 ? control[1] : 0;
          running++;
        }
      } else {
        return 0;
      }
      memmove(buffer, buffer + whole, used - whole);
      used -= whole;
      /* A buffer grown for one large request goes back to its size once it is read. */
      if (room > SERVE_LINE && used <= SERVE_LINE) {
        char *shrunk = realloc(buffer, SERVE_LINE);
        if (shrunk) buffer = shrunk, room = SERVE_LINE;
      }
    }
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "serve") == 0) {
    close_inherited();
    return serve();
  }
  if (strcmp(mode, "runs") == 0) {
    close_inherited();
    return runs();
  }
  if (strcmp(mode, "sweep") == 0 || strcmp(mode, "mount-workspace") == 0 ||
      strcmp(mode, "umount") == 0 || strcmp(mode, "kill") == 0 || strcmp(mode, "waited") == 0) {
    int status = served_mode(argc, argv, stdout, stderr);
    fflush(stdout);
    return status;
  }
  if (strcmp(mode, "cgroup-probe") == 0) return cgroup_probe(argc, argv);
  if (strcmp(mode, "self") == 0) {
    return print_lines("/proc/self/cgroup", "c") | print_lines("/proc/self/mountinfo", "m");
  }
  if (strcmp(mode, "uid") == 0) return printf("%u\n", (unsigned)getuid()) < 0;
  if (strcmp(mode, "umount-under") == 0) return argc == 3 ? umount_under(argv[2]) : 2;
  if (strcmp(mode, "rmtree") == 0) {
    close_inherited();
    return argc == 3 && argv[2][0] == '/' ? rmtree(argv[2]) : 2;
  }
  if (strcmp(mode, "mount-probe") == 0) return mount_probe();
  return launch(argc, argv);
}
