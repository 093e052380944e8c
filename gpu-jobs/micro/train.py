"""The micro recipe: a tiny llama-architecture policy trained from scratch on CPU, on tooldrift's SFT exports.

A few million parameters, its own byte-level BPE tokenizer, a ChatML chat template, loss on assistant turns only,
exported to GGUF for llama.cpp / node-llama-cpp (`npm run model:serve`). It is a real neural network whose tokens,
log-probabilities and mistakes come from inference, trained on trajectories of tooldrift's *simulated policy*: it
shows that the loop runs end to end, not what a language model can do.

    # one step: tokenizer (if --tokenizer does not exist yet, it is trained on --tokenizer-data), model, GGUF
    python3 gpu-jobs/micro/train.py --sft runs/micro/s-in.sft.jsonl --tokenizer runs/micro/tokenizer.json \
        --tokenizer-data runs/micro/pc.sft.jsonl runs/micro/s-in.sft.jsonl --seed 1 --steps 600 \
        --out runs/micro/s-in.gguf
    # --steps 0 exports the shared initialisation (the untrained model)

Shared with the GPU recipes (gpu-jobs/python/common.py): the loss mask (`assistant_token_mask`: message i owns the
tokens that the prefix of i + 1 messages adds, so system, question and observations never enter the loss) and the
length report. Records are validated by gpu-jobs/validate.ts before they get here (`npm run gpu:validate -- --sft FILE
--write DIR` writes a cleaned copy; `npm run demo:loop` validates and cleans every export it trains on).

Determinism: one thread (`torch.set_num_threads(1)`), every random draw from `--seed` (the initialisation from
`--init-seed`, default the same), records visited in an order drawn from the seed; the same files, seeds and
versions of torch / tokenizers give the same GGUF bytes. The GGUF's metadata carries the command, the seeds, the
sha256 of the training file and the label "tiny model trained on simulator trajectories".

Architecture (llama.cpp `llama`): token embedding tied to the output, pre-norm blocks of RMSNorm → causal
self-attention with rotary embeddings on adjacent pairs (llama.cpp's "normal" rope, so q/k need no permutation)
→ RMSNorm → SwiGLU feed-forward, a final RMSNorm. Matrices are written as Q8_0 (a few MB), norms as F32.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import shlex
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from common import assistant_token_mask, length_report  # noqa: E402

LABEL = "tiny model trained on simulator trajectories (tooldrift micro recipe); not a language model"

# ChatML, written into the GGUF as tokenizer.chat_template and rendered here with jinja2 for training, so the
# model is trained on exactly the text node-llama-cpp renders from the same template.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def sha256_file(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_records(path: str) -> list[list[dict]]:
    records = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            records.append([{"role": m["role"], "content": m["content"]} for m in json.loads(line)["messages"]])
    return records


_TEMPLATE = None


def render(messages: list[dict], add_generation_prompt: bool = False) -> str:
    """The conversation as text under CHAT_TEMPLATE (what node-llama-cpp renders from the GGUF's template)."""
    global _TEMPLATE
    if _TEMPLATE is None:
        import jinja2

        _TEMPLATE = jinja2.Environment().from_string(CHAT_TEMPLATE)
    return _TEMPLATE.render(messages=messages, add_generation_prompt=add_generation_prompt)


def train_tokenizer(files: list[str], vocab_size: int, out: str) -> None:
    """Byte-level BPE (GPT-2 pre-tokenization, which llama.cpp applies for `tokenizer.ggml.pre = gpt-2`)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    texts = [m["content"] for f in files for r in read_records(f) for m in r]
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(texts, trainer=trainer, length=len(texts))
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    tokenizer.save(out)


def build_model(vocab: int, args):
    import torch
    import torch.nn.functional as F
    from torch import nn

    class RMSNorm(nn.Module):
        def __init__(self, dim: int, eps: float):
            super().__init__()
            self.eps = eps
            self.weight = nn.Parameter(torch.ones(dim))

        def forward(self, x):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight

    def rope_tables(head_dim: int, length: int, base: float):
        inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
        angles = torch.outer(torch.arange(length, dtype=torch.float32), inv)
        return angles.cos(), angles.sin()

    def rope(x, cos, sin):
        # Adjacent pairs (x0, x1), (x2, x3), … rotated by position × frequency: llama.cpp's LLAMA_ROPE_TYPE_NORM.
        t = x.shape[-2]
        x1, x2 = x[..., 0::2], x[..., 1::2]
        c, s = cos[:t], sin[:t]
        return torch.stack((x1 * c - x2 * s, x1 * s + x2 * c), dim=-1).flatten(-2)

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            d = args.dim
            self.attn_norm = RMSNorm(d, args.norm_eps)
            self.wq = nn.Linear(d, d, bias=False)
            self.wk = nn.Linear(d, d, bias=False)
            self.wv = nn.Linear(d, d, bias=False)
            self.wo = nn.Linear(d, d, bias=False)
            self.ffn_norm = RMSNorm(d, args.norm_eps)
            self.w1 = nn.Linear(d, args.ffn, bias=False)  # gate
            self.w3 = nn.Linear(d, args.ffn, bias=False)  # up
            self.w2 = nn.Linear(args.ffn, d, bias=False)  # down

        def forward(self, x, cos, sin):
            b, t, d = x.shape
            h = self.attn_norm(x)
            shape = (b, t, args.heads, d // args.heads)
            q = rope(self.wq(h).view(shape).transpose(1, 2), cos, sin)
            k = rope(self.wk(h).view(shape).transpose(1, 2), cos, sin)
            v = self.wv(h).view(shape).transpose(1, 2)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.wo(a.transpose(1, 2).reshape(b, t, d))
            h = self.ffn_norm(x)
            return x + self.w2(F.silu(self.w1(h)) * self.w3(h))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, args.dim)
            self.blocks = nn.ModuleList(Block() for _ in range(args.layers))
            self.norm = RMSNorm(args.dim, args.norm_eps)
            cos, sin = rope_tables(args.dim // args.heads, args.context, args.rope_base)
            self.register_buffer("cos", cos, persistent=False)
            self.register_buffer("sin", sin, persistent=False)
            for name, p in self.named_parameters():
                if p.dim() == 2:
                    std = 0.02 / math.sqrt(2 * args.layers) if name.endswith(("wo.weight", "w2.weight")) else 0.02
                    nn.init.normal_(p, mean=0.0, std=std)

        def forward(self, ids):
            x = self.embed(ids)
            for block in self.blocks:
                x = block(x, self.cos, self.sin)
            return self.norm(x) @ self.embed.weight.T  # tied output

    return Model()


def training_ids(tokenizer):
    """`ids_of(prefix)` for assistant_token_mask: the prefix rendered with CHAT_TEMPLATE, tokenized, after BOS."""
    # node-llama-cpp's ChatML wrapper starts every prompt with BOS (<|endoftext|>); training does the same.
    bos = tokenizer.token_to_id("<|endoftext|>")
    assert bos is not None and all(tokenizer.token_to_id(t) is not None for t in SPECIAL_TOKENS)

    def ids_of(prefix):
        return [bos] + tokenizer.encode(render(prefix), add_special_tokens=False).ids

    return ids_of


def tokenize_records(tokenizer, records: list[list[dict]], context: int):
    ids_of = training_ids(tokenizer)
    out, lengths = [], []
    for messages in records:
        ids, mask = assistant_token_mask(ids_of, messages)
        lengths.append(len(ids))
        # Input/target pairs; targets whose token is not the model's own (mask 0) are ignored by the loss.
        ids, mask = ids[: context + 1], mask[: context + 1]
        if sum(mask[1:]) == 0:
            continue
        out.append((ids, mask))
    return out, lengths


def write_gguf(path: str, model, tokenizer, args, meta: dict) -> None:
    import gguf
    import numpy as np
    from gguf.quants import quantize

    vocab = tokenizer.get_vocab_size()
    writer = gguf.GGUFWriter(path, "llama")
    writer.add_name("tooldrift-micro")
    writer.add_description(LABEL)
    writer.add_string("tooldrift.micro.label", LABEL)
    writer.add_string("tooldrift.micro.training", json.dumps(meta, sort_keys=True))
    # What training fed for one conversation, so an inference engine can check it renders the same tokens.
    check = [
        {"role": "system", "content": "Answer with tools."},
        {"role": "user", "content": "Question: What is 2 + 3?"},
        {"role": "assistant", "content": 'Thought: I add.\n\nAction: Finish\n\nAction Input: {"answer": "5"}'},
    ]
    ids, mask = assistant_token_mask(training_ids(tokenizer), check)
    writer.add_string("tooldrift.micro.chat_check", json.dumps({"messages": check, "ids": ids, "mask": mask}))
    writer.add_context_length(args.context)
    writer.add_embedding_length(args.dim)
    writer.add_block_count(args.layers)
    writer.add_feed_forward_length(args.ffn)
    writer.add_head_count(args.heads)
    writer.add_head_count_kv(args.heads)
    writer.add_rope_dimension_count(args.dim // args.heads)
    writer.add_rope_freq_base(args.rope_base)
    writer.add_layer_norm_rms_eps(args.norm_eps)
    writer.add_vocab_size(vocab)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0)

    # Tokenizer: GPT-2-style byte-level BPE, tokens in id order with their merges.
    data = json.loads(tokenizer.to_str())
    by_id = {i: t for t, i in data["model"]["vocab"].items()}
    for added in data["added_tokens"]:
        by_id[added["id"]] = added["content"]
    tokens = [by_id[i] for i in range(vocab)]
    special_ids = {tokenizer.token_to_id(t) for t in SPECIAL_TOKENS}
    types = [gguf.TokenType.CONTROL if i in special_ids else gguf.TokenType.NORMAL for i in range(vocab)]
    merges = [m if isinstance(m, str) else " ".join(m) for m in data["model"]["merges"]]
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("gpt-2")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(tokenizer.token_to_id("<|endoftext|>"))
    writer.add_eos_token_id(tokenizer.token_to_id("<|im_end|>"))
    writer.add_eot_token_id(tokenizer.token_to_id("<|im_end|>"))
    writer.add_pad_token_id(tokenizer.token_to_id("<|endoftext|>"))
    writer.add_add_bos_token(False)
    writer.add_chat_template(CHAT_TEMPLATE)

    def matrix(name: str, weight) -> None:
        w = weight.detach().float().numpy()
        q = quantize(w, gguf.GGMLQuantizationType.Q8_0)
        writer.add_tensor(name, q, raw_shape=q.shape, raw_dtype=gguf.GGMLQuantizationType.Q8_0)

    def vector(name: str, weight) -> None:
        writer.add_tensor(name, weight.detach().float().numpy().astype(np.float32))

    matrix("token_embd.weight", model.embed.weight)
    for i, b in enumerate(model.blocks):
        vector(f"blk.{i}.attn_norm.weight", b.attn_norm.weight)
        matrix(f"blk.{i}.attn_q.weight", b.wq.weight)
        matrix(f"blk.{i}.attn_k.weight", b.wk.weight)
        matrix(f"blk.{i}.attn_v.weight", b.wv.weight)
        matrix(f"blk.{i}.attn_output.weight", b.wo.weight)
        vector(f"blk.{i}.ffn_norm.weight", b.ffn_norm.weight)
        matrix(f"blk.{i}.ffn_gate.weight", b.w1.weight)
        matrix(f"blk.{i}.ffn_up.weight", b.w3.weight)
        matrix(f"blk.{i}.ffn_down.weight", b.w2.weight)
    vector("output_norm.weight", model.norm.weight)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def parse_args(argv: list[str]):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sft", help="SFT JSON Lines (validated multi-turn export); not needed with --steps 0")
    p.add_argument("--out", required=True, help="the GGUF to write")
    p.add_argument("--tokenizer", required=True, help="tokenizer JSON: read if it exists, else trained and written")
    p.add_argument("--tokenizer-data", nargs="*", default=[], help="SFT files the tokenizer is trained on")
    p.add_argument("--vocab", type=int, default=4096)
    p.add_argument("--seed", type=int, default=1, help="data order (and the initialisation unless --init-seed)")
    p.add_argument("--init-seed", type=int, default=None, help="the initialisation's seed (default --seed)")
    p.add_argument("--steps", type=int, default=600, help="optimizer steps (0: export the initialisation)")
    p.add_argument("--batch", type=int, default=4, help="records per optimizer step")
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--warmup", type=int, default=30)
    p.add_argument("--context", type=int, default=2048)
    p.add_argument("--dim", type=int, default=192)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--ffn", type=int, default=512)
    p.add_argument("--rope-base", type=float, default=10000.0)
    p.add_argument("--norm-eps", type=float, default=1e-5)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--json", help="also write a JSON summary (losses, timings, sha256) here")
    return p.parse_args(argv)


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
    import torch
    from tokenizers import Tokenizer

    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    started = time.time()

    if not Path(args.tokenizer).exists():
        if not args.tokenizer_data:
            sys.exit(f"{args.tokenizer} does not exist: give --tokenizer-data to train it")
        train_tokenizer(args.tokenizer_data, args.vocab, args.tokenizer)
        print(f"tokenizer: trained on {len(args.tokenizer_data)} file(s) → {args.tokenizer}", flush=True)
    tokenizer = Tokenizer.from_file(args.tokenizer)
    vocab = tokenizer.get_vocab_size()

    init_seed = args.seed if args.init_seed is None else args.init_seed
    torch.manual_seed(init_seed)
    model = build_model(vocab, args)
    params = sum(p.numel() for p in model.parameters())
    print(f"model: {params:,} parameters (dim {args.dim}, {args.layers} layers, vocab {vocab})", flush=True)

    losses: list[float] = []
    lengths: list[int] = []
    records = 0
    if args.steps > 0:
        if not args.sft:
            sys.exit("--sft is required when --steps > 0")
        examples, lengths = tokenize_records(tokenizer, read_records(args.sft), args.context)
        records = len(examples)
        print(length_report(lengths, args.context, args.sft), flush=True)
        if not examples:
            sys.exit("no trainable record")
        order_rng = random.Random(args.seed)
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
        order: list[int] = []
        model.train()
        for step in range(args.steps):
            lr = args.lr * min(1.0, (step + 1) / max(1, args.warmup))
            lr *= 0.5 * (1 + math.cos(math.pi * step / args.steps)) * 0.9 + 0.1
            for group in optimizer.param_groups:
                group["lr"] = lr
            optimizer.zero_grad(set_to_none=True)
            total, tokens = 0.0, 0
            batch = []
            for _ in range(args.batch):
                if not order:
                    order = list(range(len(examples)))
                    order_rng.shuffle(order)
                batch.append(examples[order.pop()])
            weight = sum(sum(m[1:]) for _, m in batch)
            for ids, mask in batch:
                x = torch.tensor(ids[:-1]).unsqueeze(0)
                y = torch.tensor([t if m else -100 for t, m in zip(ids[1:], mask[1:])]).unsqueeze(0)
                logits = model(x)
                loss = torch.nn.functional.cross_entropy(
                    logits.view(-1, vocab), y.view(-1), ignore_index=-100, reduction="sum"
                )
                (loss / weight).backward()
                total += loss.item()
                tokens += len(ids) - 1
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            losses.append(total / weight)
            if step % 10 == 0 or step == args.steps - 1:
                mean = sum(losses[-10:]) / len(losses[-10:])
                print(
                    f"step {step + 1}/{args.steps}  loss {mean:.3f}  lr {lr:.2e}  "
                    f"{tokens} tokens  {time.time() - started:.0f}s (cpu {time.process_time():.0f}s)",
                    flush=True,
                )
    model.eval()

    meta = {
        "label": LABEL,
        "command": "python3 gpu-jobs/micro/train.py " + " ".join(shlex.quote(a) for a in argv),
        "seed": args.seed,
        "initSeed": init_seed,
        "steps": args.steps,
        "batch": args.batch,
        "sft": Path(args.sft).name if args.sft else None,
        "sftSha256": sha256_file(args.sft) if args.sft and args.steps > 0 else None,
        "tokenizerSha256": sha256_file(args.tokenizer),
        "records": records,
        "parameters": params,
        "torch": torch.__version__,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_gguf(args.out, model, tokenizer, args, meta)
    digest = sha256_file(args.out)
    elapsed = time.time() - started
    print(f"wrote {args.out} ({Path(args.out).stat().st_size:,} bytes, sha256 {digest[:16]}…) in {elapsed:.0f}s")
    if args.json:
        summary = {
            **meta,
            "gguf": Path(args.out).name,
            "ggufSha256": digest,
            "seconds": round(elapsed, 1),
            "cpuSeconds": round(time.process_time(), 1),
            "finalLoss": (sum(losses[-20:]) / len(losses[-20:])) if losses else None,
            "losses": [round(v, 4) for v in losses],
            "tokenLengths": lengths,
        }
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
