"""engine.interpreter.lessons: the samples are found, titled and read without importing them."""

from __future__ import annotations

import pytest

from engine.interpreter import lessons
from engine.core.errors import Refused


def test_every_lesson_has_a_title_and_statements():
    found = lessons.available()
    assert len(found) >= 6
    for lesson in found:
        assert lesson.title != "(untitled)", lesson.name
        assert "import torch" in lesson.text or "import pypto" in lesson.text


def test_each_seed_has_a_lesson():
    names = " ".join(lesson.name for lesson in lessons.available())
    for seed in ("seed_001", "seed_002", "seed_003", "seed_004"):
        assert seed in names


def test_load_by_name_with_or_without_suffix():
    assert lessons.load("factories").name == "factories"
    assert lessons.load("factories.py").name == "factories"
    with pytest.raises(Refused, match="no lesson named"):
        lessons.load("missing")
