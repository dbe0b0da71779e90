"""The layers: which package may import which, and no import cycle anywhere.

Every ``import`` counts, at any depth (an import inside a function is a dependency all
the same, only a later one). ``engine`` (the rules) is at the bottom, ``brains`` (the
opponents) above it, ``tui`` (everything a person touches) on top; ``saved`` (shipped
data) may use only the engine's errors. No module reaches, by any chain of imports, a
module that reaches it back.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "brains", "tui", "saved")

FORBIDDEN = {
    "engine": ("brains", "tui", "textual", "sklearn", "joblib", "numba"),
    "brains": ("tui", "textual"),
    "saved": ("brains", "tui", "textual", "sklearn", "joblib"),
}
"""What each package must never import (its own code, at any depth)."""

TUI_LAYERS = ("tui.link", "tui.player", "tui.game", "tui.app", "tui.host", "tui.cli")
"""The folders of tui/, lowest first: the link to the room service, the player's data,
the game session (no UI), the Textual app, the host (which runs the app per session),
the command line. A module imports only from its own folder and the ones before it."""


def modules() -> dict[str, Path]:
    """Every module of the four packages, by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The names ``path`` imports: modules of ours where they are ours (``from p import m``
    counts as ``p.m`` when ``m`` is a module), else the top-level name of the library."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = [f"{node.module}.{a.name}" for a in node.names
                    if f"{node.module}.{a.name}" in known]
            found.update(subs)
            if len(subs) < len(node.names):  # names defined in the module itself
                found.add(node.module)
    return found


def graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (a package's own parent excluded: importing
    ``p.m`` runs ``p`` first, which is no dependency of ``p.m`` on ``p``'s contents)."""
    known = modules()
    out = {}
    for name, path in known.items():
        out[name] = {m for m in imports(path, known)
                     if m in known and m != name and not name.startswith(f"{m}.")}
    return out


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_back_through_others() -> None:
    edges = graph()
    assert edges["tui.app.main"] >= {"tui.app.screens.home", "tui.app.screens.play"}  # seen
    assert "brains.ladder" in edges["tui.game.opponents"]  # function-level imports count too
    assert cycles(edges) == []


def tui_layer(name: str) -> int | None:
    """The index of ``name``'s folder in :data:`TUI_LAYERS` (None: not in one)."""
    for index, layer in enumerate(TUI_LAYERS):
        if name == layer or name.startswith(f"{layer}."):
            return index
    return None


def test_inside_tui_imports_run_only_down() -> None:
    edges = graph()
    tui = [name for name in edges if name.startswith("tui.") and name != "tui"]
    assert {tui_layer(name) for name in tui} == set(range(len(TUI_LAYERS)))  # all placed
    assert [name for name in tui if tui_layer(name) is None] == []
    upward = sorted(f"{name} imports {target}" for name in tui for target in edges[name]
                    if (tui_layer(target) or 0) > (tui_layer(name) or 0))
    assert upward == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_each_layer_imports_only_what_is_below_it(package: str) -> None:
    known = modules()
    bad = sorted(f"{name} imports {target}"
                 for name, path in known.items() if name.split(".")[0] == package
                 for target in imports(path, known)
                 if target.split(".")[0] in FORBIDDEN[package])
    assert bad == []
