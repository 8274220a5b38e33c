#!/usr/bin/env python3
"""Minimal trainer-side client for `patchgym serve --stdio` (Python standard library only).

It starts the server, opens an episode, sends assistant messages the way a trainer would after
sampling them from its own model (here: a fixed plan), and prints each observation and the reward.

    python3 examples/serve_client.py --task py-median-even \
        --patch tasks/py-median-even/solution.patch -- deno task serve
"""
import argparse
import itertools
import json
import subprocess
import sys


class PatchgymClient:
    """JSON lines over the server's stdin/stdout; one request at a time."""

    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ids = itertools.count(1)

    def request(self, **payload):
        payload["id"] = next(self.ids)
        self.proc.stdin.write(json.dumps(payload) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if "error" in answer:
            raise RuntimeError(f"{answer['error']['code']}: {answer['error']['message']}")
        return answer

    def tool_call(self, episode_id, name, arguments):
        """Send an assistant message carrying one tool call, as a model would produce it."""
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": f"call_{name}", "type": "function",
                            "function": {"name": name, "arguments": json.dumps(arguments)}}],
        }
        return self.request(op="step", episode_id=episode_id, message=message)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="py-median-even")
    parser.add_argument("--patch", help="patch to apply before submitting (e.g. the reference solution)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="server command after --")
    args = parser.parse_args()
    command = [c for c in args.command if c != "--"] or ["deno", "task", "serve"]

    client = PatchgymClient(command)
    episode = client.request(op="reset", task_id=args.task, seed=0)
    episode_id = episode["episode_id"]
    print(f"episode {episode_id}: {len(episode['messages'])} messages, {len(episode['tools'])} tools")

    plan = [("inspect_tree", {})]
    if args.patch:
        with open(args.patch, encoding="utf-8") as f:
            plan.append(("apply_patch", {"patch": f.read()}))
    plan += [("run_tests", {}), ("submit", {"status": "solved" if args.patch else "blocked", "summary": "demo"})]

    result = None
    for name, arguments in plan:
        result = client.tool_call(episode_id, name, arguments)
        first = result["observation"][0]["content"].splitlines()[0] if result["observation"] else ""
        print(f"{name}: {first}")
        if result["done"]:
            break
    print(f"done={result['done']} reward={result['reward']} stop={result['info']['stop_reason']}")
    client.request(op="close", episode_id=episode_id)
    client.close()
    return 0 if result["done"] else 1


if __name__ == "__main__":
    sys.exit(main())
