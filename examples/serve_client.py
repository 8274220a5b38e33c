#!/usr/bin/env python3
"""Trainer-side episode over `patchgym serve`, using the standard-library client in clients/python
(`pip install ./clients/python`, or run from the repository as here).

It starts the server (or connects to `--url` of a `serve --http`), opens an episode, sends
assistant messages the way a trainer would after sampling them from its own model (here: a fixed
plan), and prints each observation and the reward.

    python3 examples/serve_client.py --task py-median-even \
        --patch tasks/py-median-even/solution.patch -- deno task serve
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))

from patchgym import Client, tool_call_message  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="py-median-even")
    parser.add_argument("--patch", help="patch to apply before submitting (e.g. the reference solution)")
    parser.add_argument("--url", help="a serve --http address instead of starting serve --stdio")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="server command after --")
    args = parser.parse_args()
    command = [c for c in args.command if c != "--"] or ["deno", "task", "serve"]

    with Client.connect(args.url) if args.url else Client.stdio(command) as client:
        episode = client.reset(task_id=args.task)
        print(f"episode {episode.episode_id}: {len(episode.messages)} messages, {len(episode.tools)} tools")
        plan = [("inspect_tree", {})]
        if args.patch:
            with open(args.patch, encoding="utf-8") as f:
                plan.append(("apply_patch", {"patch": f.read()}))
        status = "solved" if args.patch else "blocked"
        plan += [("run_tests", {}), ("submit", {"status": status, "summary": "demo"})]
        result = None
        for name, arguments in plan:
            result = client.step(episode.episode_id, tool_call_message(name, arguments))
            first = result.observation[0]["content"].splitlines()[0] if result.observation else ""
            print(f"{name}: {first}")
            if result.done:
                break
        print(f"done={result.done} reward={result.reward:g} stop={result.stop_reason}")
        client.close_episode(episode.episode_id)
    return 0 if result.done else 1


if __name__ == "__main__":
    sys.exit(main())
