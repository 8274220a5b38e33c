"""Read an sft Parquet file the way verl and TRL do and render it with transformers.

Usage: python _sft_parquet_readers.py SFT.parquet SFT.jsonl TOKENIZER_DIR

verl's MultiTurnSFTDataset reads with pandas (dtype_backend="pyarrow"), turns nested values into
lists and dicts, and hands messages and tools to apply_chat_template (tools decoded with json.loads,
as the README's dataset class does). TRL's SFTTrainer reads through `datasets` and decodes a tools
string with json.loads. Each row must render to the same text as the same row of the JSONL export;
prints "N rows render the same" or exits 1 with the first difference.
"""
import json
import sys

import datasets
import numpy as np
import pandas as pd
from transformers import AutoTokenizer


def plain(value):
    """Nested arrays and mappings as lists and dicts (what verl does before templating)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain(v) for v in value]
    return value


def main(parquet_path, jsonl_path, tokenizer_dir):
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)

    def render(messages, tools):
        return tokenizer.apply_chat_template(messages, tools=tools, tokenize=False)

    with open(jsonl_path, encoding="utf-8") as f:
        expected = [json.loads(line) for line in f if line.strip()]
    verl = pd.read_parquet(parquet_path, dtype_backend="pyarrow")
    trl = datasets.load_dataset("parquet", data_files=parquet_path, split="train")
    assert len(verl) == len(trl) == len(expected), (len(verl), len(trl), len(expected))
    for i, row in enumerate(expected):
        want = render(row["messages"], row["tools"])
        assert isinstance(verl["tools"].iloc[i], str), type(verl["tools"].iloc[i])
        readers = {
            "verl": (plain(verl["messages"].iloc[i]), json.loads(verl["tools"].iloc[i])),
            "trl": (trl[i]["messages"], json.loads(trl[i]["tools"])),
        }
        for name, (messages, tools) in readers.items():
            assert tools == row["tools"], f"row {i}: {name} tools differ"
            got = render(messages, tools)
            if got != want:
                at = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
                around = slice(max(0, at - 40), at + 40)
                sys.exit(f"row {i}: {name} renders differently at {at}: {got[around]!r} vs {want[around]!r}")
    print(f"{len(expected)} rows render the same")


if __name__ == "__main__":
    main(*sys.argv[1:])
