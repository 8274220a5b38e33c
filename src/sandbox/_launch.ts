/**
 * The launcher: every child starts as `sh -c LAUNCH_SCRIPT`, which sets up the sandbox's cgroups
 * and joins them before anything else runs, so nothing the child forks can start outside them,
 * sets the rlimits with the shell's own `ulimit`, then execs the rest of the chain
 * (`setsid` or `bwrap`, then the program). It runs as a child
 * because Deno refuses to touch `/proc/self` and `/sys/fs/cgroup` without `--allow-all`; the same
 * reason makes {@linkcode SWEEP_SCRIPT} and the probes shell scripts. Private to `src/sandbox/`.
 */
import { CHILD_PATH } from "./programs.ts";

/**
 * Launcher arguments before `--`: `mkdir:DIR` makes a folder, `FILE=VALUE` writes a value,
 * `join:FILE` writes the launcher's pid (a v1 `cgroup.procs` or v2 `cgroup.procs`),
 * `jointask:FILE` writes `0` (this thread) to a v1 `tasks` file, `ulimit:F=N` sets both limits
 * of `ulimit -F`, `nproc:N` the process limit (`-u` in bash, `-p` in dash and busybox); then
 * `exec "$@"`. A failed step exits 125 with a message on stderr.
 *
 * `jointask` is how a cgroup v1 hierarchy is joined when it can be: the launcher is one thread, so
 * moving that thread moves the whole process, and the kernel (6.x) then skips the global lock
 * that `cgroup.procs` takes, whose RCU grace period costs about 10 ms per join.
 */
const LAUNCH_STEPS = `seccomp=
for a do
  shift
  case $a in
    --) break ;;
    mkdir:*) mkdir "\${a#mkdir:}" ;;
    join:*) echo $$ > "\${a#join:}" ;;
    jointask:*) echo 0 > "\${a#jointask:}" ;;
    ulimit:*) v=\${a#ulimit:}; ulimit -"\${v%%=*}" "\${v#*=}" ;;
    nproc:*) ulimit -u "\${a#nproc:}" 2>/dev/null || ulimit -p "\${a#nproc:}" ;;
    chown:*) v=\${a#chown:}; chown -R -P -h "\${v%%:*}:\${v%%:*}" -- "\${v#*:}" ;;
    seccomp:*) seccomp=\${a#seccomp:} ;;
    *=*) echo "\${a#*=}" > "\${a%%=*}" ;;
    *) false ;;
  esac || { echo "patchgym: cannot set up the sandbox: step \\"$a\\" failed" >&2; exit 125; }
done
`;

/**
 * Closes every descriptor but stdin, stdout and stderr, first thing: whatever the orchestrator's
 * parent (a CI runner, a shell, a job system) left open without close-on-exec passes through Deno
 * and bwrap, and a directory descriptor of the host's `/` would read the host's files from inside
 * the jail. dash cannot name descriptors above 9 (`exec 47>&-` is a syntax error there), so when
 * one is open the launcher runs itself again through a closer: `bash --posix` (which can, and
 * counts `ulimit -f` in 512-byte blocks like dash), else `python3`
 * (`os.closerange`, isolated: `-I -S`, since it runs as the host user, root included, with the child's
 * environment, whose `PYTHONPATH` names the workspace); with neither it refuses to start. `patchgym_launch` holds the launcher's own
 * text for that (see {@linkcode selfLaunching}).
 */
const CLOSE_FDS = `patchgym_high=
for patchgym_fd in /proc/self/fd/*; do
  [ -e "$patchgym_fd" ] || continue
  patchgym_fd=\${patchgym_fd##*/}
  case $patchgym_fd in
    0|1|2) ;;
    [3-9]) eval "exec $patchgym_fd>&-" ;;
    *) patchgym_high="$patchgym_high $patchgym_fd" ;;
  esac
done
if [ -n "$patchgym_high" ] && (eval 'exec 9>&- 10>&-') 2>/dev/null; then
  for patchgym_fd in $patchgym_high; do eval "exec $patchgym_fd>&-"; done
elif [ -n "$patchgym_high" ]; then
  if command -v bash >/dev/null 2>&1; then
    exec bash --posix -c "$patchgym_launch" sh "$@"
  elif command -v python3 >/dev/null 2>&1; then
    exec python3 -I -S -c 'import os, sys; os.closerange(3, os.sysconf("SC_OPEN_MAX")); os.execvp("sh", ["sh", "-c"] + sys.argv[1:])' "$patchgym_launch" sh "$@"
  fi
  echo "patchgym: cannot set up the sandbox: inherited file descriptors$patchgym_high cannot be closed (no bash or python3)" >&2
  exit 125
fi
unset patchgym_fd patchgym_high
`;

/**
 * `body` as a script that knows its own text (in `patchgym_launch`, so {@linkcode CLOSE_FDS} can run
 * it again through a closer) and closes inherited descriptors before anything else.
 */
function selfLaunching(body: string): string {
  const text = `${CLOSE_FDS}unset patchgym_launch\n${body}`;
  return `patchgym_launch='${text.replaceAll("'", "'\\''")}'\neval "$patchgym_launch"`;
}

/** The launcher for a process without a jail. */
export const LAUNCH_SCRIPT = selfLaunching(`${LAUNCH_STEPS}exec "$@"`);

/**
 * The launcher for bwrap: the same, with the jail's `/etc/passwd` and `/etc/group` on fds 3 and 4
 * (bwrap `--file 3 /etc/passwd`), so no file has to be written on the host for them.
 */
export function jailLaunchScript(passwd: string, group: string): string {
  const files = `3<<'PATCHGYM_PASSWD' 4<<'PATCHGYM_GROUP'
${passwd}PATCHGYM_PASSWD
${group}PATCHGYM_GROUP`;
  // With a seccomp filter: printf writes its bytes (octal escapes: no file, no NUL in an argument)
  // into a pipe the chain reads on fd 5 (bwrap --seccomp 5), and stdin moves back to fd 0.
  return selfLaunching(`${LAUNCH_STEPS}if [ -n "$seccomp" ]; then
  exec 6<&0
  printf "$seccomp" | { exec 5<&0 0<&6 6<&-; exec "$@"; } ${files}
else
  exec "$@" ${files}
fi`);
}

/**
 * Empties a sandbox's cgroups and removes them. Arguments: `procs:FILE` (the `cgroup.procs` that
 * lists every process of the sandbox), optionally `kill:FILE` (cgroup v2 `cgroup.kill`),
 * `events:FILE` (printed as `FILE KEY VALUE` lines, to tell which cap was hit) and `rmdir:DIR`.
 * Processes are killed until none is left; a pids cap bounds how many can appear meanwhile.
 */
export const SWEEP_SCRIPT = `procs= killfile= events= dirs=
for a do
  case $a in
    procs:*) procs=\${a#procs:} ;;
    kill:*) killfile=\${a#kill:} ;;
    events:*) events="$events \${a#events:}" ;;
    rmdir:*) [ -d "\${a#rmdir:}" ] && dirs="$dirs \${a#rmdir:}" ;;
  esac
done
i=0
while [ -f "$procs" ]; do
  pids=
  while read -r pid; do pids="$pids $pid"; done < "$procs"
  [ -z "$pids" ] && break
  if [ -n "$killfile" ] && [ -f "$killfile" ]; then echo 1 > "$killfile"; else kill -9 $pids 2>/dev/null; fi
  i=$((i + 1))
  if [ "$i" -gt 100000 ]; then echo "patchgym: cannot empty $procs" >&2; exit 1; fi
done
for f in $events; do
  [ -f "$f" ] && while read -r k v; do echo "$f $k $v"; done < "$f"
done
# A cgroup whose last process just died can stay busy for a moment on a loaded machine.
for d in $dirs; do
  n=0
  until rmdir "$d" 2>/dev/null || [ ! -d "$d" ]; do
    n=$((n + 1))
    if [ "$n" -gt 100 ]; then echo "patchgym: cannot remove $d" >&2; exit 1; fi
    sleep 0.01
  done
done`;

/** What a short helper script printed. */
export interface ShOutput {
  success: boolean;
  stdout: string;
  stderr: string;
}

/** Run a helper script (`sh -c script sh args...`) on the children's PATH with no environment. */
export async function runSh(script: string, args: string[] = []): Promise<ShOutput> {
  try {
    const out = await new Deno.Command("sh", {
      args: ["-c", script, "sh", ...args],
      // Not the caller's folder, which may be gone by now (a removed temp folder).
      cwd: "/",
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: { PATH: CHILD_PATH },
    }).output();
    const decoder = new TextDecoder();
    return {
      success: out.success,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  } catch (error) {
    return { success: false, stdout: "", stderr: String(error) };
  }
}
