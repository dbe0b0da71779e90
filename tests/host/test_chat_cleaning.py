"""What a room chat line may hold (tui.link.chat): escape sequences, C0/C1 controls,
bidi and zero-width characters removed, whitespace collapsed, the length cap, and the
lines read back from the wire or the host database checked again."""

from __future__ import annotations

import pytest

from tui.host.chat import restored, stored
from tui.link.chat import MAX_CHARS, ChatLine, ChatRefused, check, clean, lines_from


@pytest.mark.parametrize(("raw", "shown"), [
    ("\x1b[31mred\x1b[0m", "red"),                      # CSI (SGR)
    ("a\x1b[2J\x1b[H\x1b[?1049hb", "ab"),               # clear screen, home, alt screen
    ("\x1b]0;new title\x07x", "x"),                     # OSC ended by BEL
    ("\x1b]52;c;cHduZWQ=\x1b\\y", "y"),                 # OSC 52 (clipboard) ended by ST
    ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),  # OSC 8 hyperlink
    ("\x1bP1$qm\x1b\\z", "z"),                          # DCS
    ("\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\q", "q"),  # APC, PM, SOS
    ("\x9b31mc1\x9b0m", "c1"),                           # 8-bit CSI
    ("\x9d0;t\x9cok", "ok"),                             # 8-bit OSC ended by 8-bit ST
    ("\x1b7\x1b8\x1bc\x1b(Bkeep", "keep"),               # other ESC sequences
    ("\x1b]0;never ended", ""),                          # an unended OSC takes the rest
    ("nul\x00bel\x07bs\x08del\x7f", "nulbelbsdel"),      # C0 and DEL
    ("\x80\x84\x8d\x8e\x99!", "!"),                      # lone C1 controls
    ("\x90q;1\x9cok\x9fapc", "ok"),                        # 8-bit DCS, APC (unended)
    ("abc\u202edcba\u202c \u2066iso\u2069 \u200f", "abcdcba iso"),  # bidi overrides
    ("zero\u200bwidth\u200d\ufeffjoin", "zerowidthjoin"),  # zero-width, BOM
    ("private\ue000use", "privateuse"),
    ("  lots \t of\n\n white\r\n space\u00a0\u2028\u2029\u3000here  ", "lots of white space here"),
    ("e\u0301\u0301\u0301\u0301\u0301\u0301!", "e\u0301\u0301!"),  # no tower of accents
    ("\u0301starts with a mark", "starts with a mark"),
    ("café ünïcode 日本語 ok", "café ünïcode 日本語 ok"),  # text stays as it is
    ("[bold]not markup[/bold]", "[bold]not markup[/bold]"),
])
def test_cleaning_keeps_only_text(raw, shown):
    assert clean(raw) == shown
    assert all(c.isprintable() for c in clean(raw))


def test_a_line_is_refused_when_empty_or_too_long_and_escapes_do_not_count():
    with pytest.raises(ChatRefused, match="empty"):
        check(" \x1b[1m\u200b\t\x07 ")
    with pytest.raises(ChatRefused, match=f"at most {MAX_CHARS} characters"):
        check("x" * (MAX_CHARS + 1))
    assert check("\x1b[1m" * 50 + "x" * MAX_CHARS) == "x" * MAX_CHARS
    assert check("  one   line \n") == "one line"


def test_lines_from_the_wire_are_checked_and_cleaned_again():
    message = {"t": "chat", "lines": [
        {"name": "ann\x1b[31m", "spectator": False, "text": "hi\x1b]0;x\x07!"},
        {"name": "bo", "spectator": "yes", "text": "bad role"},
        {"name": 5, "spectator": True, "text": "bad name"},
        {"name": "cy", "spectator": True, "text": "\x1b[2J"},
        {"name": "", "spectator": True, "text": "y" * 5000},
        "not a line",
        {"name": "di", "spectator": True, "text": "z" * 900},
    ]}
    lines = lines_from(message)
    assert lines == [ChatLine("ann", False, "hi!"),
                     ChatLine("di", True, "z" * MAX_CHARS)]
    assert [line.shown() for line in lines] == ["ann: hi!", "di (spectator): " + "z" * 200]
    assert lines_from({"t": "chat", "lines": "no"}) == []
    assert lines_from({"t": "chat"}) == []


def test_lines_kept_in_the_database_read_back_as_they_were_or_as_a_spectators():
    line = ChatLine("ann", False, 'quotes " and \\ stay')
    assert restored(stored(line)) == line
    assert restored("not json") is None
    assert restored('{"n": "x", "x": "role lost"}') == ChatLine("x", True, "role lost")
    assert restored('{"n": "x", "s": false, "x": "\\u001b[2Jclean"}') == \
        ChatLine("x", False, "clean")
    assert restored("[1, 2]") is None
