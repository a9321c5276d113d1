"""The stepper page's styles and script, as strings inlined into the page (no file
beside it, no network).  Plain data; what they show is computed in
:mod:`tracer.render.stepper`.
"""

from __future__ import annotations

from tracer.render.storage_html import ROW_EMS

#: The page around the block: fluid width, type that reads from the back of a room
#: (it grows with the window: 18px on a laptop, about 24px at 1920 pixels).
PAGE_CSS = """html { font-size: clamp(17px, 0.9vw + 7px, 28px); }
body { margin: 0 auto; padding: 0 2vw 2em; max-width: none; background: #fafafa; }
body .tidx { font-size: 1rem; }  /* over the block's own 15px */
"""

#: The stepper's own rules, scoped to ``.tidx`` like the rest of the block.
CSS = """.tidx h1 { margin: 0.5em 0 0.3em; }
.tidx h2.part { border-bottom: 2px solid #ddd; padding-bottom: 0.2em; }
.tidx .autograd ul { list-style: none; margin: 0; padding-left: 1.2em;
  border-left: 1px dotted #bbb; }
.tidx .autograd li { font-family: ui-monospace, monospace; white-space: pre-wrap; }
.tidx .autograd li.running { background: #fff3b0; outline: 2px solid #e0a800; }
.tidx .autograd .bold { font-weight: bold; } .tidx .autograd .dim { color: #777; }
.tidx .autograd .cyan { color: #00739e; } .tidx .autograd .bold-red { color: #b00020; font-weight: bold; }
.tidx nav.controls { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap;
                     gap: 0.8em; align-items: center; padding: 0.5em 0.8em;
                     background: #263238; color: #fff; border-radius: 6px; }
.tidx nav.controls button { font: inherit; font-weight: bold; padding: 0.3em 1em;
                            border-radius: 6px; border: 2px solid #fff; cursor: pointer;
                            background: #37474f; color: #fff; }
.tidx nav.controls button:disabled { opacity: 0.35; cursor: default; }
.tidx nav.controls .position { font-size: 1.3em; min-width: 8em; text-align: center; }
.tidx nav.controls .keys { color: #cfd8dc; font-size: 0.8em; margin-left: auto; }
.tidx .stage { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1.5em;
               margin: 0.8em 0 1.5em; }
/* a projector's 1024 to a 1920 screen: the step beside its storage, the storage row in
   view without scrolling down.  The storage picture's rows are cut for ROW_EMS ems
   (storage_html.per_row); its type is at most what makes ROW_EMS + 1 ems fill the
   column, so a row is never wider than the column it is in. */
@media (min-width: 1000px) {
  .tidx .stage { grid-template-columns: minmax(0, 1fr) minmax(0, 2fr); }
}
.tidx .pictures, .tidx .panel { container-type: inline-size; }
/* a kernel's name (cpu_index_put_kernel: 20 monospace characters) on one line */
.tidx .panel .now { font-size: min(1.5em, 100cqi / 13); }
.tidx .pictures figure.storage { font-size: min(1em, 100cqi / %(ems)s); }
.tidx .panel, .tidx .pictures { background: #fff; border: 1px solid #ddd; border-radius: 8px;
                                padding: 0.8em 1.1em; }
.tidx .pictures h3, .tidx .outcome h3 { margin: 0 0 0.4em; font-size: 1em; color: #555; }
.tidx .panel .where code.src { font-size: 1.1em; font-weight: bold; }
.tidx .panel .where .count { color: #777; margin-left: 0.6em; font-size: 0.85em; }
.tidx ol.path { list-style: none; margin: 0.7em 0 0.3em; padding: 0; font-size: 0.85em;
                color: #555; }
.tidx ol.path li { margin: 0.1em 0; white-space: nowrap; overflow: hidden;
                   text-overflow: ellipsis; }
.tidx ol.path li:nth-child(n+2) { padding-left: 0.9em; }
.tidx ol.path li:nth-child(n+2)::before { content: "↳ "; color: #999; }
.tidx .panel .now { margin: 0.4em 0; }
.tidx .panel .now .name { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace;
                          overflow-wrap: anywhere; }
.tidx .panel .now .layer { font-size: 0.55em; vertical-align: 0.3em; }
.tidx table.values { border-collapse: collapse; margin: 0.4em 0; }
.tidx table.values th { text-align: left; color: #555; font-weight: normal;
                        padding: 0.1em 0.8em 0.1em 0; vertical-align: top; white-space: nowrap; }
.tidx table.values td { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace;
                        overflow-wrap: anywhere; }
.tidx .panel .note { margin: 0.5em 0; font-size: 1em; color: #333; }
.tidx .panel .note.en { color: #888; font-size: 0.9em; }
.tidx .panel .source { margin: 0.3em 0; font-size: 0.8em; }
.tidx .panel .folded { font-size: 0.9em; color: #6a1b9a; font-style: italic; }
.tidx .panel .error { font-weight: bold; color: #c62828; }
.tidx .outcome pre { background: #f6f8fa; padding: 0.6em; border-radius: 6px; margin: 0;
                     white-space: pre-wrap; overflow-wrap: anywhere;
                     font-size: max(0.6em, min(0.9em, 100cqi / (var(--cols, 40) * 0.61 + 1.4))); }
.tidx .pictures p.empty { color: #777; font-style: italic; }
.tidx .steplist { max-height: 75vh; overflow: auto; border: 1px solid #ddd;
                  border-radius: 8px; padding: 0 1em 1em; background: #fff; }
.tidx .steplist [data-step] { cursor: pointer; border-radius: 4px; }
.tidx .steplist [data-step]:hover { background: #eef; }
.tidx .steplist [data-step].current { background: #fff59d; outline: 2px solid #f9a825; }
.tidx .step .result, .tidx .step .args { overflow-wrap: anywhere; }
@media print {
  .tidx nav.controls { display: none; }
  .tidx .steplist { max-height: none; overflow: visible; border: none; }
  .tidx .stage { grid-template-columns: minmax(0, 1fr); }
  .tidx .steplist [data-step].current { background: none; outline: none; }
  .tidx li, .tidx figure.storage, .tidx .panel { break-inside: avoid; }
  .tidx figure.diagram { break-inside: avoid; }
}
""".replace("%(ems)s", str(ROW_EMS + 1))

#: The script: shows step K (1-based in the URL and on screen, 0-based inside).  It
#: only moves between what the page already holds; it never fetches anything.
JS = r"""(function () {
  "use strict";
  // a large diagram is held deflated (tracer/render/svg_compact.py): inflated by the
  // browser itself, parsed as SVG (never as HTML) and put where its figure is
  var packed = document.querySelector("figure.diagram[data-deflated]");
  if (packed && window.DecompressionStream) {
    var bytes = Uint8Array.from(atob(packed.getAttribute("data-deflated")),
                                function (c) { return c.charCodeAt(0); });
    new Response(new Blob([bytes]).stream()
                 .pipeThrough(new DecompressionStream("deflate-raw"))).text()
      .then(function (text) {
        var svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
        if (svg.localName !== "svg") { return; }   // a parse error: left as it is
        packed.replaceChildren(document.importNode(svg, true));
        packed.removeAttribute("data-deflated");
      });
  }
  var frames = document.querySelectorAll("template.tidx-frame");
  var n = frames.length;
  if (!n) { return; }
  var panel = document.getElementById("tidx-panel");
  var pictures = document.getElementById("tidx-pictures");
  var pos = document.getElementById("tidx-pos");
  var prev = document.getElementById("tidx-prev");
  var next = document.getElementById("tidx-next");
  var list = document.getElementById("tidx-list");
  var rows = {};
  document.querySelectorAll("#tidx-list [data-step]").forEach(function (el) {
    rows[el.getAttribute("data-step")] = el;
  });
  var current = -1;

  function fromHash() {
    var m = /^#step=(\d{1,9})$/.exec(window.location.hash);
    if (!m) { return null; }
    return Math.min(Math.max(parseInt(m[1], 10), 1), n) - 1;
  }

  function clone(id) {
    var t = document.getElementById(id);
    return t ? t.content.cloneNode(true) : document.createTextNode("");
  }

  function show(k) {
    k = Math.min(Math.max(k, 0), n - 1);
    var frame = frames[k];
    var content = frame.content.cloneNode(true);
    content.querySelectorAll("[data-ref]").forEach(function (el) {
      el.replaceWith(clone(el.getAttribute("data-ref")));   // what steps share, held once
    });
    panel.replaceChildren(content);
    var ids = (frame.getAttribute("data-pictures") || "").split(" ").filter(Boolean);
    if (ids.length) {
      pictures.replaceChildren.apply(pictures, ids.map(clone));
    } else {
      var p = document.createElement("p");
      p.className = "empty";
      p.textContent = pictures.getAttribute("data-empty");
      pictures.replaceChildren(p);
    }
    pos.textContent = (k + 1) + " / " + n;
    prev.disabled = k === 0;
    next.disabled = k === n - 1;
    if (rows[current]) { rows[current].classList.remove("current"); }
    var row = rows[k];
    if (row) {
      row.classList.add("current");
      if (list && list.scrollHeight > list.clientHeight) {
        var top = row.getBoundingClientRect().top - list.getBoundingClientRect().top;
        if (top < 0 || top > list.clientHeight - row.offsetHeight) {
          list.scrollTop += top - list.clientHeight / 3;
        }
      }
    }
    current = k;
    if (window.location.hash !== "#step=" + (k + 1)) {
      try {
        window.history.replaceState(null, "", "#step=" + (k + 1));
      } catch (e) {
        // a browser that refuses it here: the link is only a convenience
      }
    }
  }

  prev.addEventListener("click", function () { show(current - 1); });
  next.addEventListener("click", function () { show(current + 1); });
  if (list) {
    list.addEventListener("click", function (e) {
      if (e.target.closest("a")) { return; }
      var row = e.target.closest("[data-step]");
      if (row) { show(parseInt(row.getAttribute("data-step"), 10)); }
    });
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) { return; }
    var moves = {ArrowRight: current + 1, ArrowLeft: current - 1, PageDown: current + 1,
                 PageUp: current - 1, Home: 0, End: n - 1};
    if (!Object.prototype.hasOwnProperty.call(moves, e.key)) { return; }
    e.preventDefault();
    show(moves[e.key]);
  });
  window.addEventListener("hashchange", function () {
    var k = fromHash();
    if (k !== null && k !== current) { show(k); }
  });
  var start = fromHash();
  show(start === null ? 0 : start);
})();
"""
