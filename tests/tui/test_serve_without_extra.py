"""parlor serve without the serve extra says how to install it."""

from __future__ import annotations

import sys

import pytest


def test_serve_without_the_extra_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from tui import cli

    monkeypatch.setitem(sys.modules, "textual_serve", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    assert cli.main(["serve"]) == 1
    err = capsys.readouterr().err
    assert "textual-serve is not installed" in err and "parlor[serve]" in err

