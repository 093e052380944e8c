"""Shared helpers of the tooldrift training scripts (GPU side; see gpu-jobs/README.md).

The configs are rendered by gpu-jobs/render.ts (trl/sft.json, trl/dpo.json); paths in them are relative to the
run folder, which is where the scripts are started.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

CONFIG_KEYS = {
    "kind",
    "model_name_or_path",
    "adapter_name_or_path",
    "train_file",
    "lora",
    "drop_over_length",
    "args",
}


def load_config(path: str, kind: str) -> dict[str, Any]:
    """Reads a rendered config and checks it is the kind this script trains."""
    config = json.loads(Path(path).read_text(encoding="utf-8"))
    unknown = set(config) - CONFIG_KEYS
    missing = CONFIG_KEYS - set(config)
    if unknown or missing:
        sys.exit(f"{path}: unexpected keys {sorted(unknown)}, missing keys {sorted(missing)}; re-render it")
    if config["kind"] != kind:
        sys.exit(f"{path} is a {config['kind']} config; this script trains {kind}")
    return config


def load_tokenizer(name: str):
    """The model's tokenizer with a pad token that is not the end-of-turn token when the vocabulary has one."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(name)
    if tokenizer.pad_token is None:
        # Llama 3.1 reserves a pad token; padding with <|eot_id|> would hide the end of turn from some collators.
        reserved = "<|finetune_right_pad_id|>"
        if reserved in tokenizer.get_vocab():
            tokenizer.pad_token = reserved
        else:
            tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_model(config: dict[str, Any]):
    """The causal LM in bf16 (or fp32), with the SFT LoRA adapter merged in when DPO starts from one."""
    import torch
    from transformers import AutoModelForCausalLM

    dtype = torch.bfloat16 if config["args"].get("bf16") else torch.float32
    model = AutoModelForCausalLM.from_pretrained(config["model_name_or_path"], torch_dtype=dtype)
    adapter = config.get("adapter_name_or_path")
    if adapter:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, adapter).merge_and_unload()
    return model


def peft_config(config: dict[str, Any]):
    if not config.get("lora"):
        return None
    from peft import LoraConfig

    return LoraConfig(**config["lora"])


def chat_ids(tokenizer, messages: list[dict]) -> list[int]:
    """Token ids of a conversation under the model's chat template (list or BatchEncoding, by library version)."""
    ids = tokenizer.apply_chat_template(messages, tokenize=True)
    if hasattr(ids, "keys"):
        ids = ids["input_ids"]
    return list(ids)


def chat_token_count(tokenizer, messages: list[dict]) -> int:
    """Tokens of a conversation under the model's chat template."""
    return len(chat_ids(tokenizer, messages))


def assistant_token_mask(ids_of, messages: list[dict]) -> tuple[list[int], list[int]]:
    """Token ids of the whole conversation and a mask that is 1 on assistant turns only.

    `ids_of(prefix)` tokenizes a prefix of the conversation with the chat template. Message i owns the tokens the
    prefix of i + 1 messages adds to the prefix of i, so environment text (system, question, observations as user
    turns) is masked out of the loss whatever the template looks like. Raises ValueError when a template does not
    extend its own prefixes (the split would be wrong).
    """
    ids: list[int] = []
    mask: list[int] = []
    for i, message in enumerate(messages):
        full = list(ids_of(messages[: i + 1]))
        if full[: len(ids)] != ids:
            raise ValueError(f"the chat template does not extend the prefix at message {i}")
        added = full[len(ids) :]
        ids = full
        mask.extend([1 if message["role"] == "assistant" else 0] * len(added))
    return ids, mask


def length_report(lengths: list[int], max_length: int, name: str) -> str:
    """`name: N records, real tokens p50/p95/max, K over max_length` with the exact (tokenizer) counts."""
    if not lengths:
        return f"{name}: no records"
    ordered = sorted(lengths)
    p50 = ordered[(len(ordered) - 1) // 2]
    p95 = ordered[min(len(ordered) - 1, -(-95 * len(ordered) // 100) - 1)]
    over = sum(1 for n in lengths if n > max_length)
    return (
        f"{name}: {len(lengths)} records, tokens p50 {p50}, p95 {p95}, max {ordered[-1]}; "
        f"{over} over max_length {max_length}"
    )
