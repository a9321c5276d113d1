"""User text is data in every export (issue 24): a lesson that prints hostile strings
is exported in every format, and each file is read from outside as its reader would
read it — the SVG parsed as XML, the DOT source parsed by Graphviz itself, the HTML by
an HTML parser and by Chromium, the markdown by a CommonMark parser, the gdb file by
gdb — to check that no string became markup, an attribute, a link, a script, an
image, a heading or a command, and that each shows as the text it is."""

from __future__ import annotations

import ast
import html
import json
import re
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import cli_run, require_dot, require_gdb
from tracer.document import read_json
from tracer.render import mermaid as render_mermaid
from tracer.render.visible import one_line, visible

GITHUB = "https://github.com/pytorch/pytorch/blob/"

# Strings a student's lesson may print, each aimed at one format's syntax.
DOT_LINK = '<a> URL="javascript:alert(1)" target="_top" tooltip=<b>'
DOT_IMAGE = '<x> image="/etc/passwd" tooltip=<y>'
DOT_BACKSLASH = 'a trailing backslash ends a DOT string early \\'
DOT_AFTER = '" URL="javascript:alert(5)" tooltip="'       # read as DOT after the one above
HTML = '<script>alert(2)</script></svg>]]><!-- --><img src=x onerror="alert(4)">'
MERMAID = '--> %%{init: {"theme": "dark"}}%% ;#x; end\nNote over you: injected'
MARKDOWN = "`code` ``` [x](javascript:alert(3)) ![i](x.png) <b>b</b> &lt; *em*\n# heading"
CONTROL = ("nul\x00 bel\x07 esc\x1b[31mred del\x7f c1\x85 cr\rover rtl\u202eevil\u202c "
           "ls\u2028ps\u2029 bom\ufeff zws\u200b nonchar\uffff")
PRINTED = [DOT_LINK, DOT_IMAGE, DOT_BACKSLASH, DOT_AFTER, HTML, MERMAID, MARKDOWN, CONTROL]

#: A canary the gdb file would create if a line of the lesson ran as a command.
CANARY = "tidx-gdb-canary"


def lesson(canary: Path) -> str:
    """A lesson printing every hostile string, with raw control and bidirectional
    characters in its own source, a statement whose second line would be a gdb command,
    and, last, a PyTorch error quoting one of them."""
    prints = [f"print({s!r})" for s in PRINTED]
    raw = ('s = "raw \x1b[2J esc \u202e rtl \u200b zws \u2028 ls \x0c ff </svg> '
           '<script>alert(7)</script>"')
    return "\n".join([
        "import torch",
        "t = torch.tensor([1, 2, 3])",
        *prints,
        raw,
        'z = "\\ud800"',                      # a lone surrogate: no UTF-8 has it
        f'print("""x\nshell touch {canary}\n```\n[y](javascript:alert(6))""")',
        "u = torch.tensor([1,  # ]]> </svg> <script>alert(8)</script>\n"
        f"                  2])  # \\nshell touch {canary}",
        "t[0] = 5",
        f"torch.device({DOT_LINK!r})",       # the lesson stops at this error
        "",
    ])


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The lesson and every export of it (dot installed): by format, the files written
    and the command's result."""
    require_dot()
    root = tmp_path_factory.mktemp("hostile")
    source = root / "lesson.py"
    source.write_text(lesson(root / CANARY), encoding="utf-8")
    out = {"root": root}
    for fmt, name, options in [("svg", "l.svg", ()), ("png", "l.png", ()),
                               ("pdf", "l.pdf", ()), ("dot", "l.dot", ()),
                               ("calls-dot", "calls.dot", ("--diagram", "calls")),
                               ("calls-svg", "calls.svg", ("--diagram", "calls")),
                               ("mermaid", "l.mmd", ()),
                               ("calls-mermaid", "calls.mmd", ("--diagram", "calls")),
                               ("markdown", "l.md", ()), ("json", "l.json", ()),
                               ("html", "l.html", ()), ("html-full", "full.html", ("--full",)),
                               ("gdb", "l.gdb", ()), ("gif", "l.gif", ())]:
        res = cli_run("export", "-f", str(source), "-o", str(root / name), *options)
        out[fmt] = (sorted(root.glob(name.replace(".", "*."))), res)
    return out


def _files(exported, fmt: str) -> list[Path]:
    """The files of one export, which must have worked: exit 1 is the lesson's own
    PyTorch errors, anything else a failed export."""
    files, res = exported[fmt]
    assert res.exit_code == 1 and files, (fmt, res.output)
    return files


def _printed_lines() -> list[str]:
    """What the lesson printed, line by line, as every drawing must show it."""
    return [line for s in PRINTED for line in visible(s).split("\n")]


# -- SVG ----------------------------------------------------------------------------

XLINK = "{http://www.w3.org/1999/xlink}"
SVG_TAGS = {"svg", "g", "title", "text", "path", "polygon", "polyline", "ellipse", "a",
            "defs", "linearGradient", "radialGradient", "stop"}


def _svg_safe(path: Path) -> list[str]:
    """Parse an SVG as XML; check that it only draws (no script, image, foreign
    object, handler or link other than PyTorch's sources) and return its texts."""
    root = ET.parse(path).getroot()
    texts = []
    for el in root.iter():
        tag = el.tag.split("}")[-1]
        assert tag in SVG_TAGS, (path.name, tag)
        for key, value in el.attrib.items():
            name = key.replace(XLINK, "")
            assert not name.lower().startswith("on"), (path.name, key)
            if name == "href":
                assert value.startswith(GITHUB), (path.name, value)
            if name == "target":
                assert value == "_blank", (path.name, value)
            assert "javascript:" not in value or name == "title", (path.name, key, value)
        if tag == "text":
            texts.append(el.text or "")
    return texts


def _words(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


@pytest.mark.dot
@pytest.mark.parametrize("fmt", ["svg", "calls-svg"])
def test_svg_draws_printed_text_as_text_and_nothing_else(exported, fmt):
    shown = []
    for path in _files(exported, fmt):
        shown += _svg_safe(path)
    drawn = _words(shown)
    for line in _printed_lines():
        assert _words([line]) in drawn, line


@pytest.mark.dot
@pytest.mark.parametrize("fmt", ["dot", "calls-dot"])
def test_the_dot_source_as_graphviz_parses_it_has_no_user_attribute(exported, fmt):
    """Graphviz's own reading of the DOT file (``dot -Tjson``): every attribute is one
    tidx sets, no node carries an image, a link other than PyTorch's or another target,
    and the printed strings are the text the labels draw."""
    (path,) = _files(exported, fmt)
    out = subprocess.run([require_dot(), "-Tjson", str(path)], capture_output=True,
                         check=True, timeout=300)
    graph = json.loads(out.stdout)
    allowed = {"label", "tooltip", "URL", "target", "pos", "width", "height", "shape",
               "style", "fillcolor", "color", "fontcolor", "fontname", "fontsize",
               "fixedsize", "margin", "penwidth", "arrowhead", "arrowsize", "name", "tail",
               "head"}
    assert {k for k in graph if not k.startswith("_")} <= {
        "bb", "bgcolor", "directed", "edges", "inputscale", "layout", "name", "objects",
        "outputorder", "pad", "splines", "strict", "xdotversion", "nodesep", "ordering",
        "rankdir", "ranksep"}
    drawn = []
    for obj in graph.get("objects", []) + graph.get("edges", []):
        for key, value in obj.items():
            if key.startswith("_"):
                if key in ("_ldraw_", "_hldraw_", "_tldraw_"):
                    drawn += [op["text"] for op in value if op.get("op") == "T"]
                continue
            assert key in allowed, (key, value)
            if key == "URL":
                assert value.startswith(GITHUB), value
            if key == "target":
                assert value == "_blank", value
    words = _words(drawn)
    for line in _printed_lines():
        assert _words([line]) in words, line


@pytest.mark.dot
def test_png_pdf_and_gif_are_made_from_the_same_safe_source(exported):
    assert _files(exported, "png")[0].read_bytes().startswith(b"\x89PNG")
    assert _files(exported, "gif")[0].read_bytes().startswith(b"GIF89a")
    pdf = _files(exported, "pdf")[0].read_bytes()
    # cairo writes a PDF link for each URL (PyTorch's sources), none for a printed one
    assert pdf.startswith(b"%PDF") and b"javascript" not in pdf.lower()


# -- HTML (the stepper, the notebook) ---------------------------------------------------

class _Page(HTMLParser):
    """Every tag, attribute and piece of text of a page, as a browser's parser sees it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        (self.scripts if self._in_script else self.text).append(data)


def _html_safe(page: str, scripts: int) -> str:
    """Parse a page; check that it has only tidx's own script and links; its text."""
    parsed = _Page()
    parsed.feed(page)
    parsed.close()
    assert len(parsed.scripts) == scripts
    for tag, attrs in parsed.tags:
        assert tag not in ("img", "image", "iframe", "object", "embed", "foreignobject"), tag
        for key, value in attrs.items():
            assert not key.startswith("on"), (tag, key)
            if key in ("href", "xlink:href", "src", "action", "formaction"):
                assert value.startswith(GITHUB), (tag, key, value)
            assert "javascript:" not in (value or "") or key in ("title", "xlink:title"), \
                (tag, key, value)
    return "".join(parsed.text)


@pytest.mark.dot
@pytest.mark.parametrize("fmt", ["html", "html-full"])
def test_the_stepper_page_shows_printed_text_as_text(exported, fmt):
    from tracer.render import stepper_assets

    page = _files(exported, fmt)[0].read_text(encoding="utf-8")
    text = _html_safe(page, scripts=1)
    assert stepper_assets.JS in page
    # each step's panel is an inert template: what a step shows is parsed the same way
    shown = _words(text.split("\n"))
    for s in PRINTED:
        assert _words([visible(s)]) in shown, s


@pytest.mark.dot
def test_the_notebook_views_show_printed_text_as_text(exported):
    from tracer.render import notebook

    doc = read_json(_files(exported, "json")[0].read_bytes(), "the export")
    view = notebook.TraceView(doc)
    for page in (view._repr_html_(), notebook.lesson_html(doc),
                 notebook.LessonView(doc)._repr_html_()):
        shown = _words(_html_safe(page, scripts=0).split("\n"))
        for s in PRINTED:
            assert _words([visible(s)]) in shown, s
    svg = exported["root"] / "notebook.svg"
    svg.write_text(view.svg(), encoding="utf-8")
    assert _words([visible(DOT_LINK)]) in _words(_svg_safe(svg))


@pytest.mark.dot
@pytest.mark.chromium
def test_chromium_runs_nothing_the_lesson_printed(exported):
    """The stepper and an SVG in a real browser: the page's one script runs (it draws
    the first step), nothing of the lesson does, every link is PyTorch's."""
    from cdp import Browser
    from conftest import require_chromium

    with Browser(require_chromium()) as b:
        svg = next(p for p in _files(exported, "svg") if "alert(1)" in p.read_text())
        for page in (_files(exported, "html")[0], svg):
            b.open(page.as_uri())
            b.js("for (const k of ['End', 'Home']) document.dispatchEvent("
                 "new KeyboardEvent('keydown', {key: k}))")
            links = b.js("Array.from(document.querySelectorAll('a')).map(a => "
                         "a.getAttribute('href') || a.getAttribute('xlink:href') || '')")
            assert all(not link or link.startswith(GITHUB) for link in links), links
            assert b.js("document.querySelectorAll('img, image, iframe, object, embed, "
                        "foreignObject').length") == 0
            assert b.js("document.querySelectorAll('script').length") == (
                1 if page.suffix == ".html" else 0)
            # (a label may wrap the line at a space, drawn as two text elements)
            assert "".join(b.js("document.documentElement.textContent").split()).count(
                "".join(visible(DOT_LINK).split())) >= 1
        dialogs = [ev for ev in b.events if ev.get("method") == "Page.javascriptDialogOpening"]
        assert dialogs == [] and b.console_errors() == []


# -- mermaid, markdown ----------------------------------------------------------------

_MERMAID_LINE = re.compile(
    r"^(sequenceDiagram|flowchart LR|    actor you|    participant \w+ as [\w +]+"
    r"|    deactivate \w+|    classDef \w+ [\w:#,]+|    \w+ --> \w+"
    r"|    (Note over [\w,]+|Note right of you|\w+(->>\+|-->>-|--x-)\w+): (?P<text>.*)"
    r"|    \w+\[\"(?P<label>.*)\"\](:::\w+)?)$")
#: What mermaid's text may hold: no syntax of its own, its entities only.
_MERMAID_TEXT = re.compile(r"^([^;#<>%`\"&\n]|#\w+;)*$")


@pytest.mark.dot
@pytest.mark.parametrize("fmt", ["mermaid", "calls-mermaid"])
def test_mermaid_has_only_its_own_lines_and_escaped_text(exported, fmt):
    source = _files(exported, fmt)[0].read_text(encoding="utf-8")
    texts = []
    for line in source.splitlines():
        m = _MERMAID_LINE.match(line)
        assert m, line
        text = m.group("text") or m.group("label") or ""
        assert line.isprintable(), line          # no control or bidirectional character
        for part in text.split("<br/>"):
            assert _MERMAID_TEXT.match(part), part
            texts.append(part)
    # each statement's note reads as its source (mermaid's labels are cut at 84)
    entities = {v: k for k, v in render_mermaid._ENTITIES.items()}
    shown = [re.sub(r"#\w+;", lambda e: entities.get(e.group(), e.group()), t)
             for t in texts]
    for s in PRINTED:
        title = one_line(f">>> print({s!r})")[:60]
        assert any(t.startswith(title) for t in shown), title


@pytest.mark.dot
def test_markdown_parses_to_no_link_image_html_or_heading_of_the_lesson(exported):
    from markdown_it import MarkdownIt

    page = _files(exported, "markdown")[0].read_text(encoding="utf-8")
    tokens = MarkdownIt("commonmark").parse(page)
    flat = [t for tok in tokens for t in [tok, *(tok.children or [])]]
    kinds = {t.type for t in flat}
    assert not kinds & {"html_inline", "html_block", "image"}, kinds
    links = [t.attrs.get("href") for t in flat if t.type == "link_open"]
    assert links and all(str(h).startswith(GITHUB) for h in links), links
    # a title, and one heading per statement: no printed '# heading' became one
    statements = len(json.loads(_files(exported, "json")[0].read_text())["statements"])
    assert sum(t.type == "heading_open" for t in tokens) == 1 + statements
    fences = [t for t in tokens if t.type == "fence"]
    assert [t.info for t in fences][0] == "mermaid"
    assert fences[0].content == _files(exported, "mermaid")[0].read_text(encoding="utf-8")
    printed = "".join(t.content for t in fences if t.info == "text")
    for s in PRINTED:
        assert visible(s) in printed, s


# -- gdb, JSON ------------------------------------------------------------------------

@pytest.mark.dot
def test_gdb_reads_the_lesson_only_as_comments(exported, tmp_path):
    """gdb itself reads the whole file (its 'run' fails: no program is given) and runs
    no line of the lesson; every line tidx wrote is a comment or one of its commands."""
    path = _files(exported, "gdb")[0]
    lines = path.read_text(encoding="utf-8").split("\n")
    commands = re.compile(r"^\s*(#|$|set |break |commands$|silent$|printf |if |else$|"
                          r"end$|enable |disable |python( |$)|continue$|run$|output )")
    block = False
    for before, line in zip([""] + lines, lines):
        if line == "python":                 # the one Python block tidx writes
            block = True
        if block:
            block = line != "end"
            continue
        assert commands.match(line), line
        assert not before.endswith("\\") or line.startswith("#"), (before, line)
        if CANARY in line or "javascript" in line:
            assert line.startswith("#"), line
    # the program its header lists for real PyTorch is the lesson's, string for string
    # (a line split at U+2028 or a character replaced by '?' would be another program)
    program = "\n".join(line[4:] for line in lines if line.startswith("# | "))
    strings = {n.value for n in ast.walk(ast.parse(program)) if isinstance(n, ast.Constant)}
    lesson_strings = {n.value for n in ast.walk(ast.parse(lesson(exported["root"] / CANARY)))
                      if isinstance(n, ast.Constant)}
    assert strings == lesson_strings
    res = subprocess.run([require_gdb(), "-batch", "-nx", "-x", str(path)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert "No executable file specified" in res.stderr, res.stderr
    assert not (exported["root"] / CANARY).exists() and not (tmp_path / CANARY).exists()


@pytest.mark.dot
def test_json_keeps_every_string_exactly(exported):
    doc = json.loads(_files(exported, "json")[0].read_bytes().decode("utf-8"))
    printed = [line for st in doc["statements"] for line in st.get("printed") or []]
    assert all(s in printed for s in PRINTED)
    bound = {k: v["summary"].get("value") for st in doc["statements"]
             for k, v in st["bindings"].items()}
    assert bound["z"] == "\ud800" and "\u202e" in bound["s"]


def test_a_lone_surrogate_is_json_not_an_internal_error(tmp_path):
    out = tmp_path / "s.json"
    res = cli_run("export", 's = "\\ud800"; s', "-o", str(out))
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_bytes().decode("utf-8"))
    assert doc["statements"][0]["bindings"]["s"]["summary"]["value"] == "\ud800"
    res = cli_run("explain", 's = "\\ud800"', "--format", "json")
    assert res.exit_code == 0, res.output


def test_the_escapes_are_the_python_escapes_of_the_characters():
    for s in PRINTED:
        shown = visible(s, newlines=False)
        assert shown.isprintable() or all(c.isprintable() or c == " " for c in shown)
        assert not re.search("[\u202a-\u202e\u2066-\u2069\x00-\x1f]", shown)
        # within a Python string literal the escapes read back as the string
        assert "\\" in s or eval('"' + shown.replace('"', '\\"') + '"') == s   # noqa: S307 - test
    assert html.escape(visible("\u202e")) == "\\u202e"


def test_a_saved_document_naming_an_unknown_layer_is_refused_where_it_is_read(tmp_path):
    """A trace read back from a JSON file is data too: a layer name it makes up (here one
    that would end a mermaid line and start a click handler) is refused where the file
    is read, so no renderer ever sees it (they read the typed document, issue #25)."""
    from engine.interpreter import session

    doc = session.run("t[1, 2] = 3")
    doc["statements"][0]["events"][0]["layer"] = 'python\n    click s0 href "javascript:x"'
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = cli_run("render", str(path), "--format", "mermaid")
    assert res.exit_code == 2 and res.stdout == ""
    assert "statements[0].events[0].layer: expected one of python" in res.stderr
    assert res.stderr.count("\n") == 1     # the value quoted (repr), on the one line