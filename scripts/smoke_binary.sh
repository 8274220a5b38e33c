#!/usr/bin/env bash
# Smoke test of the compiled binary: list tasks, a reference rollout of one task, and one
# serve --stdio reset/step. Usage: scripts/smoke_binary.sh dist/patchgym
set -euo pipefail
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
"$bin" tasks | tail -n 1
"$bin" rollout --tasks py-median-even --out "$work/runs/smoke" | tail -n 3
python3 "$repo/examples/serve_client.py" --task py-median-even \
  --patch "$repo/tasks/py-median-even/solution.patch" -- "$bin" serve --stdio
echo "smoke: compiled binary ok"
