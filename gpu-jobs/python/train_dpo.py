"""Optional DPO on tooldrift's preference export with TRL's DPOTrainer, starting from the SFT model (needs a GPU;
see gpu-jobs/README.md).

    cd runs/x
    accelerate launch --num_processes 8 ../../gpu-jobs/python/train_dpo.py trl/dpo.json
    python ../../gpu-jobs/python/train_dpo.py trl/dpo.json --check-only   # token counts, no training

Each export line is already TRL's conversational preference format: {"prompt": [system, user], "chosen":
[assistant], "rejected": [assistant], "meta": {...}}; `meta` is dropped. The reference model is a frozen copy of
the starting model (TRL builds it; with LoRA the adapter is switched off instead).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import chat_token_count, length_report, load_config, load_model, load_tokenizer, peft_config  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("config", help="trl/dpo.json rendered by gpu-jobs/render.ts")
    parser.add_argument("--check-only", action="store_true", help="measure token lengths and stop")
    cli = parser.parse_args()
    config = load_config(cli.config, "dpo")

    from datasets import load_dataset

    tokenizer_source = config["adapter_name_or_path"] or config["model_name_or_path"]
    tokenizer = load_tokenizer(tokenizer_source)
    raw = load_dataset("json", data_files=config["train_file"], split="train")
    dataset = raw.remove_columns([c for c in raw.column_names if c not in ("prompt", "chosen", "rejected")])

    max_length = int(config["args"]["max_length"])

    def count(example: dict) -> dict:
        longest = max(
            chat_token_count(tokenizer, example["prompt"] + example[side])
            for side in ("chosen", "rejected")
        )
        return {"n_tokens": longest}

    measured = dataset.map(count)
    print(length_report(measured["n_tokens"], max_length, config["train_file"]), flush=True)
    if cli.check_only:
        return
    if config["drop_over_length"]:
        dataset = measured.filter(lambda e: e["n_tokens"] <= max_length).remove_columns("n_tokens")
        print(f"training on {len(dataset)} pairs after dropping those over max_length", flush=True)
        if len(dataset) == 0:
            sys.exit("no pair fits max_length; raise maxLength in the settings and re-render")

    from trl import DPOConfig, DPOTrainer

    args = DPOConfig(**config["args"])  # before the model, so DeepSpeed ZeRO-3 can shard while loading
    trainer = DPOTrainer(
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
