"""The text side of the network baselines: TF-IDF, an offline tokenizer, and the hub
architecture built with random weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from baselines.text import (
    ARCHITECTURES,
    encode,
    predict_logits,
    text_classifier,
    tfidf,
    train_tokenizer,
)

TEXTS = [f"comment number {k} says you are {'kind' if k % 2 else 'an idiot'}" for k in range(60)]


def test_pretrained_none_builds_the_hub_architecture_with_a_task_tokenizer() -> None:
    model, tokenizer = text_classifier("distilbert/distilroberta-base", 6, "none", TEXTS)
    config, hub = model.config, ARCHITECTURES["distilbert/distilroberta-base"]
    for field in ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size"):
        assert getattr(config, field) == hub[field], field
    assert (
        config.model_type == hub["model_type"]
        and config.vocab_size == len(tokenizer) < hub["vocab_size"]
    )
    tokens = encode(tokenizer, ["you are kind", "idiot"], 16)
    assert tokens["input_ids"].shape == (2, 16) and tokens["attention_mask"][1].sum() < 16
    assert predict_logits(model, tokens, torch.device("cpu"), 4).shape == (2, 6)


def test_the_hub_config_has_the_published_size() -> None:
    """With the hub's 50,265-token vocabulary the masked-LM model is distilroberta's 82M."""
    from transformers import AutoConfig, AutoModelForMaskedLM

    fields = dict(ARCHITECTURES["distilbert/distilroberta-base"])
    config = AutoConfig.for_model(fields.pop("model_type"), **fields, pad_token_id=1)
    params = sum(p.numel() for p in AutoModelForMaskedLM.from_config(config).parameters())
    assert 82.0e6 < params < 82.3e6


def test_tokenizer_round_trips_and_pretrained_failures_say_what_to_do(tmp_path: Path) -> None:
    tokenizer = train_tokenizer(TEXTS, vocab_size=300)
    ids = tokenizer("you are an idiot")["input_ids"]
    assert ids[0] == tokenizer.bos_token_id and ids[-1] == tokenizer.eos_token_id
    assert tokenizer.decode(ids, skip_special_tokens=True).strip() == "you are an idiot"
    with pytest.raises(RuntimeError, match="pass --pretrained none"):
        text_classifier("distilbert/distilroberta-base", 2, str(tmp_path), TEXTS)


def test_tfidf_has_word_and_character_features() -> None:
    x = tfidf(TEXTS)
    assert x.shape[0] == len(TEXTS) and x.shape[1] > 50 and np.isfinite(x.data).all()
