/** Command dispatch and top-level error reporting. */
import { patchgymCommand } from "../hint.ts";
import { PatchgymError, TaskError } from "../errors.ts";
import { didYouMean } from "../suggest.ts";
import { exitWithLauncher } from "./_launcher.ts";
import { VERSION } from "../version.ts";
import { rolloutCommand } from "./rollout.ts";

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, { run: () => Promise<Command>; summary: string }> = {
  rollout: {
    run: () => Promise.resolve(rolloutCommand),
    summary: "run a policy on tasks and write trajectories",
  },
  tasks: { run: () => import("./tasks.ts").then((m) => m.tasksCommand), summary: "list the tasks" },
  validate: {
    run: () => import("./validate.ts").then((m) => m.validateCommand),
    summary: "check every task end to end",
  },
  score: {
    run: () => import("./score.ts").then((m) => m.scoreCommand),
    summary: "grade a patch file for a task",
  },
  import: {
    run: () => import("./import.ts").then((m) => m.importCommand),
    summary: "convert SWE-bench or HumanEval records into tasks",
  },
  synth: {
    run: () => import("./synth.ts").then((m) => m.synthCommand),
    summary: "synthesize bug-fixing tasks from repositories whose tests pass",
  },
  export: {
    run: () => import("./export.ts").then((m) => m.exportCommand),
    summary: "convert trajectories for a trainer",
  },
  show: {
    run: () => import("./show.ts").then((m) => m.showCommand),
    summary: "print a run's episodes turn by turn, with the grade",
  },
  report: {
    run: () => import("./report.ts").then((m) => m.reportCommand),
    summary: "(re)build a run's report.html",
  },
  serve: {
    run: () => import("./serve.ts").then((m) => m.serveCommand),
    summary: "trainer-driven mode over JSON lines (--stdio)",
  },
  worker: {
    run: () => import("./worker.ts").then((m) => m.workerCommand),
    summary: "run rollout jobs from a Redis queue (rollout --queue)",
  },
  doctor: {
    run: () => import("./doctor.ts").then((m) => m.doctorCommand),
    summary: "report Deno, sandbox, runners and endpoint",
  },
};

const HELP = `patchgym ${VERSION}: a sandboxed environment for training coding agents with RL

Usage: patchgym <command> [flags]   (each command has --help; from a source checkout the command
       is "deno task patchgym <command>")

${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`).join("\n")}
`;

/** Run the command line; returns the process exit code. */
export async function runCli(args: string[]): Promise<number> {
  exitWithLauncher();
  const [name, ...rest] = args;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(HELP);
    return name ? 0 : 2;
  }
  if (name === "--version") {
    console.log(VERSION);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(
      `Unknown command "${name}"${didYouMean(name, Object.keys(COMMANDS))}; run "${
        patchgymCommand("--help")
      }" to list the commands`,
    );
    return 2;
  }
  try {
    return await (await command.run())(rest);
  } catch (error) {
    if (error instanceof TaskError) {
      console.error(`Cannot load tasks:\n${error.problems.map((p) => `  ${p}`).join("\n")}`);
      return 1;
    }
    if (error instanceof PatchgymError) {
      console.error(error.message);
      return error.code === "usage" ? 2 : 1;
    }
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      const detail = (error as Error).message.replace(/, run again with the --allow-\S+ flag/, "");
      console.error(
        `Permission denied: ${detail}; patchgym may touch only the files, folders and hosts named on its command line, the task folder and the workspace root (the compiled binary: ./tasks, ./runs and /tmp/patchgym; docs/sandbox.md): name the path in a flag, or run it through "deno task patchgym"`,
      );
      return 1;
    }
    throw error;
  }
}
