/**
 * The launcher: every child starts as it, which sets up the sandbox's cgroups and joins them
 * before anything else runs, so nothing the child forks can start outside them, sets the rlimits,
 * then execs the rest of the chain (`bwrap`, or the program in a session of its own). It is the
 * compiled `patchgym_launch` (see `launcher.ts`) when one was built, else `sh -c LAUNCH_SCRIPT`
 * with the same steps. It runs as a child because Deno refuses to touch `/proc/self` and
 * `/sys/fs/cgroup` without `--allow-all`; for the same reason the cgroup sweep, the probes, mounts
 * and kills are launcher modes (or, in the fallback, the shell scripts of {@linkcode HELPER_SCRIPTS}).
 * Private to `src/sandbox/`.
 */
import { CHILD_PATH } from "./programs.ts";

/** The compiled launcher's path, or null for the `sh` fallback. */
export type Launcher = string | null;

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
const LAUNCH_STEPS = `seccomp= patchgym_tag=
for a do
  shift
  case $a in
    --) break ;;
    tag:*) patchgym_tag=" [\${a#tag:}]" ;;
    mkdir:*) mkdir "\${a#mkdir:}" ;;
    join:*) echo $$ > "\${a#join:}" ;;
    jointask:*) echo 0 > "\${a#jointask:}" ;;
    ulimit:*) v=\${a#ulimit:}; ulimit -"\${v%%=*}" "\${v#*=}" ;;
    nproc:*) ulimit -u "\${a#nproc:}" 2>/dev/null || ulimit -p "\${a#nproc:}" ;;
    chown:*) v=\${a#chown:}
      case \${v#*:} in /*/*) ;; *) false ;; esac &&
      find "\${v#*:}" -maxdepth 0 -type d -uid +65535 ! -perm 0700 -exec chmod 0700 {} + &&
      [ -z "$(find "\${v#*:}" -maxdepth 0 -type d \\( -perm /1022 -o ! -uid +65535 ! -uid "$(id -u)" \\) -print)" ] &&
        chown -R -P -h "\${v%%:*}:\${v%%:*}" -- "\${v#*:}" ;;
    seccomp:*) seccomp=\${a#seccomp:} ;;
    *=*) echo "\${a#*=}" > "\${a%%=*}" ;;
    *) false ;;
  esac || { echo "patchgym: cannot set up the sandbox: step \\"$a\\" failed$patchgym_tag" >&2; exit 125; }
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
function jailLaunchScript(passwd: string, group: string): string {
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
const SWEEP_SCRIPT = `procs= killfile= events= dirs=
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
  # A killed process stays listed until its exit is done (its jail's mounts go first), which can
  # take seconds: wait between rounds after the first ones, about 300 s in all.
  if [ "$i" -gt 31000 ]; then echo "patchgym: cannot empty $procs" >&2; exit 1; fi
  [ "$i" -gt 1000 ] && sleep 0.01
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

/** How sandbox cgroup folders begin (then the pid of the patchgym process that made them). */
export const CGROUP_PREFIX = "patchgym-";

/**
 * For each parent folder given: empty (kill what is left, of what this PID namespace sees: another
 * namespace's processes are listed as 0) and remove the sandbox cgroups of dead patchgym processes,
 * then make and remove a test folder; print `ok DIR FILES...` (the control files a new cgroup gets)
 * or `no DIR`.
 */
const CGROUP_PROBE_SCRIPT = `for d do
  for s in "$d"/${CGROUP_PREFIX}*; do
    [ -d "$s" ] || continue
    pid=\${s##*/${CGROUP_PREFIX}}; pid=\${pid%%-*}
    [ -d "/proc/$pid" ] && continue
    for i in 1 2 3 4 5 6 7 8 9 10; do
      rmdir "$s" 2>/dev/null && break
      for p in $(cat "$s/cgroup.procs" 2>/dev/null); do [ "$p" -gt 0 ] && kill -9 "$p" 2>/dev/null; done
      sleep 0.05
    done
  done
  t="$d/${CGROUP_PREFIX}$$-probe"
  if mkdir "$t" 2>/dev/null; then
    printf 'ok %s' "$d"
    for f in "$t"/*; do printf ' %s' "\${f##*/}"; done
    echo
    rmdir "$t"
  else
    echo "no $d"
  fi
done`;

/**
 * What a run's clock reads, as the launcher's `waited` prints it: how long the threads of the
 * processes in cgroup.procs files (`procs:FILE`) have waited for a CPU, added up; the run's CPU
 * time as its cgroup counts it (`cpu:FILE`, a v1 cpuacct.usage or a v2 cpu.stat; else -1); and
 * how long the machine's CPUs have been idle, added up (or -1). Times in ms.
 */
const WAITED_SCRIPT = `waited=0 cpu=-1 n=0
for a do
  case $a in
    */../*|*/..) ;;
    procs:/sys/fs/cgroup/*)
      for p in $(cat "\${a#procs:}" 2>/dev/null); do
        [ "$p" -gt 0 ] && [ $n -lt 4096 ] || continue
        n=$((n + 1))
        for t in /proc/$p/task/*; do
          { read -r r w rest < "$t/schedstat"; } 2>/dev/null && waited=$((waited + w))
        done
      done
      continue ;;
    cpu:/sys/fs/cgroup/*/cpuacct.usage)
      { read -r ns < "\${a#cpu:}"; } 2>/dev/null && cpu=$((ns / 1000000)); continue ;;
    cpu:/sys/fs/cgroup/*/cpu.stat)
      while read -r key value; do
        [ "$key" = usage_usec ] && cpu=$((value / 1000)) && break
      done < "\${a#cpu:}" 2>/dev/null
      continue ;;
  esac
  echo "patchgym: waited: \\"$a\\" is neither procs:FILE nor cpu:FILE of a cgroup" >&2; exit 1
done
tick=$(getconf CLK_TCK 2>/dev/null) || tick=0
idle=-1
{ read -r name user nice system idle_ticks iowait rest < /proc/stat; } 2>/dev/null &&
  [ "$name" = cpu ] && [ "$tick" -gt 0 ] && idle=$(((idle_ticks + iowait) * 1000 / tick))
echo $((waited / 1000000)) $cpu $idle`;

/**
 * The launcher's helper modes, each with the shell script that does the same in the fallback (same
 * arguments, same output).
 */
export const HELPER_SCRIPTS = {
  sweep: SWEEP_SCRIPT,
  "cgroup-probe": CGROUP_PROBE_SCRIPT,
  self:
    'while read -r l; do echo "c $l"; done < /proc/self/cgroup; while read -r l; do echo "m $l"; done < /proc/self/mountinfo',
  uid: 'while read -r k v rest; do [ "$k" = Uid: ] && echo "$v"; done < /proc/self/status',
  "mount-workspace":
    'exec mount -t tmpfs -o "size=$1,nr_inodes=$2,mode=0700,nosuid,nodev" patchgym-workspace "$3"',
  umount: 'umount "$1" 2>/dev/null || umount -l "$1" 2>/dev/null; true',
  "mount-probe": `d=$(mktemp -d) || exit 1
mount -t tmpfs -o size=4096,nr_inodes=16 patchgym-probe "$d" && umount "$d"; s=$?
rmdir "$d"; exit $s`,
  kill: 'kill -9 "$@" 2>/dev/null; true',
  waited: WAITED_SCRIPT,
  rmtree:
    'case $1 in /*) chmod -R u+rwx -- "$1" 2>/dev/null; exec rm -rf --one-file-system -- "$1" ;; *) exit 2 ;; esac',
} as const;

/** A helper mode of the launcher. */
export type HelperMode = keyof typeof HELPER_SCRIPTS;

/** What a launcher or helper run printed. */
export interface ShOutput {
  success: boolean;
  stdout: string;
  stderr: string;
}

/** The argv of launcher helper `mode` (or its shell script) with `args`. */
export function helperArgv(launcher: Launcher, mode: HelperMode, args: string[] = []): string[] {
  return launcher ? [launcher, mode, ...args] : ["sh", "-c", HELPER_SCRIPTS[mode], "sh", ...args];
}

/** Run launcher helper `mode` (or its shell script) with `args`. */
export function runHelper(
  launcher: Launcher,
  mode: HelperMode,
  args: string[] = [],
): Promise<ShOutput> {
  return runArgv(helperArgv(launcher, mode, args));
}

/** What one child of {@linkcode launchArgv} does before and as it execs `command`. */
/** Exit status of the launcher when it cannot set up the sandbox. */
export const LAUNCH_FAILED = 125;

export interface LaunchPlan {
  /** Set-up steps (`mkdir:`, `FILE=VALUE`, `join:`, `jointask:`, `ulimit:`, `nproc:`, `chown:`). */
  steps: string[];
  /** The jail's `/etc/passwd` and `/etc/group` (fds 3 and 4), and seccomp filter (fd 5, hex). */
  jail?: { passwd: string; group: string; seccomp: string | null };
  /** Without a jail, as root: the sandbox uid to drop to (`setpriv` in the fallback). */
  drop?: number | null;
  /** Without a jail: a session of its own (`setsid` in the fallback). */
  setsid?: boolean;
  /** What is exec'd at the end: `bwrap ...` or an allowlisted program and its arguments. */
  command: string[];
  /**
   * The run's secret tag: a failed step's line ends with ` [TAG]`, which the program cannot know,
   * so a program that prints the same line and exits 125 is not taken for a failed set-up.
   */
  tag?: string;
}

/** The argv that starts `plan` through `launcher` (or `sh` when null). */
export function launchArgv(launcher: Launcher, plan: LaunchPlan): string[] {
  const { jail, drop, setsid, command } = plan;
  const steps = plan.tag ? [`tag:${plan.tag}`, ...plan.steps] : plan.steps;
  const filter = jail?.seccomp ?? null;
  if (launcher) {
    return [
      launcher,
      ...steps,
      ...(jail ? [`passwd:${jail.passwd}`, `group:${jail.group}`] : []),
      ...(filter ? [`seccomp:${filter}`] : []),
      ...(drop != null ? [`drop:${drop}`] : []),
      ...(setsid ? ["setsid"] : []),
      "--",
      ...command,
    ];
  }
  return [
    "sh",
    "-c",
    jail ? jailScript(jail.passwd, jail.group) : LAUNCH_SCRIPT,
    "sh",
    ...steps,
    ...(filter ? [`seccomp:${octalOf(filter)}`] : []),
    "--",
    ...(drop != null ? setprivArgs("setpriv", drop) : []),
    ...(setsid ? ["setsid"] : []),
    ...command,
  ];
}

/** `setpriv` arguments that make the rest of the chain run as `uid`, unprivileged for good. */
export function setprivArgs(setpriv: string, uid: number): string[] {
  return [
    setpriv,
    `--reuid=${uid}`,
    `--regid=${uid}`,
    "--clear-groups",
    "--no-new-privs",
    "--inh-caps=-all",
    "--bounding-set=-all",
    "--",
  ];
}

const jailScripts = new Map<string, string>();
/** The jail's launcher script for these passwd and group files, made once per pair. */
function jailScript(passwd: string, group: string): string {
  const key = `${passwd}\0${group}`;
  let script = jailScripts.get(key);
  if (!script) {
    script = jailLaunchScript(passwd, group);
    jailScripts.set(key, script);
  }
  return script;
}

const octal = new Map<string, string>();
/** Hex bytes as a `printf` format (every byte an octal escape: no NUL in an argument). */
function octalOf(hex: string): string {
  let text = octal.get(hex);
  if (text === undefined) {
    text = (hex.match(/../g) ?? [])
      .map((b) => `\\${parseInt(b, 16).toString(8).padStart(3, "0")}`)
      .join("");
    octal.set(hex, text);
  }
  return text;
}

/** Run `argv` on the children's PATH with no environment, from `/`. */
export async function runArgv(argv: string[]): Promise<ShOutput> {
  try {
    const out = await new Deno.Command(argv[0], {
      args: argv.slice(1),
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
