"""Supervised fine-tuning on tooldrift's SFT export with TRL's SFTTrainer (needs a GPU; see gpu-jobs/README.md).

    cd runs/x
    accelerate launch --num_processes 8 ../../gpu-jobs/python/train_sft.py trl/sft.json
    python ../../gpu-jobs/python/train_sft.py trl/sft.json --check-only   # token counts, no training

Each export line is {"messages": [...], "meta": {...}} in one of two layouts: multi-turn (the default export:
system, user question, then an assistant turn per step with the observations as user turns between them) or
single-turn (system, user, one assistant message holding the whole trajectory). Every record is tokenized with
the model's own chat template into `input_ids` and a `completion_mask` that is 1 on assistant turns only
(common.assistant_token_mask), and TRL's `completion_only_loss` trains on those tokens alone: in the multi-turn
layout the observations are masked out of the loss. Before training, the count over `max_length` is printed, and
those records are dropped when the config says `drop_over_length`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    assistant_token_mask,
    chat_ids,
    length_report,
    load_config,
    load_model,
    load_tokenizer,
    peft_config,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("config", help="trl/sft.json rendered by gpu-jobs/render.ts")
    parser.add_argument("--check-only", action="store_true", help="measure token lengths and stop")
    cli = parser.parse_args()
    config = load_config(cli.config, "sft")

    from datasets import load_dataset

    tokenizer = load_tokenizer(config["model_name_or_path"])
    raw = load_dataset("json", data_files=config["train_file"], split="train")

    def tokenize(example: dict) -> dict:
        ids, mask = assistant_token_mask(lambda prefix: chat_ids(tokenizer, prefix), example["messages"])
        return {"input_ids": ids, "completion_mask": mask, "n_tokens": len(ids)}

    max_length = int(config["args"]["max_length"])
    measured = raw.map(tokenize, remove_columns=raw.column_names)
    dataset = measured.remove_columns("n_tokens")
    print(length_report(measured["n_tokens"], max_length, config["train_file"]), flush=True)
    if cli.check_only:
        return
    if config["drop_over_length"]:
        dataset = measured.filter(lambda e: e["n_tokens"] <= max_length).remove_columns("n_tokens")
        print(f"training on {len(dataset)} records after dropping those over max_length", flush=True)
        if len(dataset) == 0:
            sys.exit("no record fits max_length; raise maxLength in the settings and re-render")

    from trl import SFTConfig, SFTTrainer

    args = SFTConfig(**config["args"])  # before the model, so DeepSpeed ZeRO-3 can shard while loading
    trainer = SFTTrainer(
        model=load_model(config),
        args=args,
        train_dataset=dataset,
        processing_class=tokenizer,
        peft_config=peft_config(config),
    )
    trainer.train()
    trainer.save_model(args.output_dir)
    tokenizer.save_pretrained(args.output_dir)


if __name__ == "__main__":
    main()
