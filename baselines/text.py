"""Text for the baselines: a TF-IDF model (the CPU workhorse) and a fine-tuned transformer.

TF-IDF: word 1-2-grams and character 2-5-grams, sublinear term frequency, fitted on the
training and test text together (no labels are used), then a linear model per target.

Transformer: transformers' sequence classifier by hub id, ``from_pretrained`` by default
(the hub, ``HF_HOME``'s cache, or ``--pretrained PATH``). ``--pretrained none`` builds the same
architecture from a config written here in code, with random weights, and a byte-level BPE
tokenizer trained in seconds on the task's own text: offline, and the vocabulary (hence the
embedding matrix) is the only part that differs from the hub model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

from baselines.kit import SetupError

ARCHITECTURES: dict[str, dict[str, Any]] = {
    "distilbert/distilroberta-base": {
        "model_type": "roberta",
        "hidden_size": 768,
        "num_hidden_layers": 6,
        "num_attention_heads": 12,
        "intermediate_size": 3072,
        "max_position_embeddings": 514,
        "type_vocab_size": 1,
        "layer_norm_eps": 1e-5,
        "vocab_size": 50265,
    },
    "deepset/xlm-roberta-base-squad2": {  # XLM-RoBERTa base, fine-tuned on SQuAD 2.0
        "model_type": "xlm-roberta",
        "hidden_size": 768,
        "num_hidden_layers": 12,
        "num_attention_heads": 12,
        "intermediate_size": 3072,
        "max_position_embeddings": 514,
        "type_vocab_size": 1,
        "layer_norm_eps": 1e-5,
        "vocab_size": 250002,
    },
}
"""Hub id -> its ``config.json`` architecture fields, for ``--pretrained none``."""
TOKENIZER_VOCAB = 8000  # byte-level BPE merges learnt on the task's text for --pretrained none


def tfidf(texts: Sequence[str], max_features: int = 200_000) -> Any:
    """Sparse TF-IDF rows for ``texts``: word 1-2-grams and char 2-5-grams, side by side."""
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer

    words = TfidfVectorizer(
        ngram_range=(1, 2), sublinear_tf=True, min_df=2, max_features=max_features
    )
    chars = TfidfVectorizer(
        analyzer="char_wb",
        ngram_range=(2, 5),
        sublinear_tf=True,
        min_df=2,
        max_features=max_features,
    )
    return hstack([words.fit_transform(texts), chars.fit_transform(texts)]).tocsr()


def train_tokenizer(texts: Sequence[str], vocab_size: int = TOKENIZER_VOCAB) -> Any:
    """A RoBERTa-style byte-level BPE tokenizer learnt from ``texts``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    core = Tokenizer(models.BPE(unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    core.decoder = decoders.ByteLevel()
    core.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=vocab_size,
            special_tokens=specials,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False,
        ),
    )
    eos, bos = core.token_to_id("</s>"), core.token_to_id("<s>")
    assert eos is not None and bos is not None  # special tokens are always in the vocabulary
    core.post_processor = processors.RobertaProcessing(("</s>", eos), ("<s>", bos))
    return PreTrainedTokenizerFast(
        tokenizer_object=core,
        bos_token="<s>",
        eos_token="</s>",
        unk_token="<unk>",
        pad_token="<pad>",
        mask_token="<mask>",
        cls_token="<s>",
        sep_token="</s>",
    )


def text_classifier(
    hub_id: str,
    num_labels: int,
    pretrained: str | None,
    texts: Sequence[str],
) -> tuple[torch.nn.Module, Any]:
    """``(model, tokenizer)``: ``hub_id``'s classifier with a fresh ``num_labels`` head.

    ``pretrained``: None loads ``hub_id``, a hub id or folder loads that, ``none`` builds the
    architecture with random weights and a tokenizer trained on ``texts``.
    """
    from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer

    if pretrained == "none":
        tokenizer = train_tokenizer(texts)
        fields = dict(ARCHITECTURES[hub_id])
        config = AutoConfig.for_model(
            fields.pop("model_type"),
            **{**fields, "vocab_size": len(tokenizer)},
            pad_token_id=tokenizer.pad_token_id,
            bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id,
            num_labels=num_labels,
        )
        return AutoModelForSequenceClassification.from_config(config), tokenizer
    name = pretrained or hub_id
    try:
        tokenizer = AutoTokenizer.from_pretrained(name)
        model = AutoModelForSequenceClassification.from_pretrained(
            name, num_labels=num_labels, ignore_mismatched_sizes=True
        )
    except (OSError, ValueError) as e:  # no hub, no cache, or not a model folder
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise SetupError(
            f"cannot load pretrained weights {name!r} ({first}); without hub access pass "
            "--pretrained none (random weights) or --pretrained PATH (a local copy)"
        ) from None
    return model, tokenizer


def describe(model: torch.nn.Module, hub_id: str, pretrained: str | None) -> str:
    params = sum(p.numel() for p in model.parameters()) / 1e6
    if pretrained == "none":
        weights = "random, tokenizer trained on the task's text (--pretrained none)"
    else:
        weights = pretrained or hub_id
    return f"model {hub_id} ({params:.1f}M parameters); weights: {weights}"


def encode(tokenizer: Any, texts: Sequence[str], max_length: int) -> dict[str, np.ndarray]:
    """Token ids and attention masks, padded or cut to ``max_length``, as int64 arrays."""
    batch = tokenizer(
        list(texts),
        padding="max_length",
        truncation=True,
        max_length=max_length,
        return_tensors="np",
    )
    return {
        "input_ids": batch["input_ids"].astype(np.int64),
        "attention_mask": batch["attention_mask"].astype(np.int64),
    }


def forward_rows(
    model: torch.nn.Module, tokens: dict[str, np.ndarray], device: torch.device
) -> Callable[[np.ndarray], torch.Tensor]:
    """``forward(rows) -> logits`` over the encoded rows, trimmed to the longest row of the
    batch (padding beyond it changes nothing but costs time)."""

    def forward(rows: np.ndarray) -> torch.Tensor:
        mask = tokens["attention_mask"][rows]
        width = max(1, int(mask.sum(axis=1).max()))
        ids = torch.from_numpy(tokens["input_ids"][rows, :width]).to(device)
        return model(
            input_ids=ids, attention_mask=torch.from_numpy(mask[:, :width]).to(device)
        ).logits

    return forward


def predict_logits(
    model: torch.nn.Module, tokens: dict[str, np.ndarray], device: torch.device, batch_size: int
) -> np.ndarray:
    from baselines.torchkit import autocast, predict

    model.eval()
    forward = forward_rows(model, tokens, device)

    def run(rows: np.ndarray) -> torch.Tensor:
        with autocast(device):
            return forward(rows).float()

    return predict(run, len(tokens["input_ids"]), batch_size)
