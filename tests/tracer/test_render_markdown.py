"""The markdown page: golden text, and escaping of notes and values."""

from __future__ import annotations


from conftest import golden
from engine.interpreter import session
from tracer.document import Document
from tracer.render import markdown as render_markdown

# goldens must not depend on which test seeded the engine's generator first


def test_markdown_golden():
    golden("basic.md", render_markdown.render(session.run_document("t[1, 2] = 3", seed=0)))


def test_page_has_the_mermaid_block_every_step_and_the_result():
    text = render_markdown.render(session.run_document("torch.randn(3, 4)", seed=0))
    assert "```mermaid\nsequenceDiagram\n" in text
    assert "- **Python** `torch.randn`" in text
    assert "    - **Memory** `computeStorageNbytesContiguous`" in text
    assert "[aten/src/ATen/EmptyTensor.cpp](https://github.com/pytorch/pytorch/blob/v2.13.0/" \
           "aten/src/ATen/EmptyTensor.cpp)" in text
    assert "tensor([[ 1.5410, -0.2934, -2.1788,  0.5684]," in text
    assert "torch.manual_seed(0)" in text


def test_notes_cannot_start_markdown_syntax():
    doc = session.run("t[1, 2] = 3")
    doc["statements"][0]["events"][0]["note"] = "a *b* [c](d) <e> `f` # g"
    text = render_markdown.render(Document.from_json(doc))
    assert r"*a \*b\* \[c\](d) \<e\> \`f\` \# g*" in text


def test_an_error_is_shown_at_the_step_and_at_the_end():
    text = render_markdown.render(session.run_document("t[0, 5] = 1"))
    assert "**raises IndexError:** index 5 is out of bounds for dimension 1 with size 3" in text
    # the statement ends with its error; the page with what the run allocated
    assert text.rstrip().endswith("IndexError: index 5 is out of bounds for dimension 1 with "
                                  "size 3\n```\n\n→ t has size 3 in dimension 1, so an index "
                                  "there must be between -3 and 2; 5 is not.\n\n"
                                  "allocated: 8 bytes in 1 block")
