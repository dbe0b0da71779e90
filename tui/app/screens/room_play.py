"""RoomPlayScreen: a game in a host room, as a player or a spectator.

The game lives in the room service; this screen only shows it and sends what the
player does (a move, resign, a draw or takeback offer, an answer, a chat line). Every
position shown is rebuilt here with the engine from the service's move list, and the
clocks tick down locally between the service's updates (a :class:`ClockPanel` set from
the clock readings the service sent).

The chat panel shows the room's chat as the service sends it (a player sees the
spectators' lines only once the game is over: the service decides); ``c`` says a line,
``t`` mutes or shows the chat (kept in the player's settings; muted, it only counts the
lines that came).
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Header, Static

from engine.protocol import ParlorError
from engine.registry import get_game
from tui.app.dialogs.choose import ChooseDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.screens.hosted_game import HostedGameScreen
from tui.app.screens.play import TO_MOVE
from tui.app.widgets import board_class
from tui.app.widgets.clock import ClockPanel
from tui.app.widgets.footer import ParlorFooter
from tui.app.widgets.move_list import MoveList, move_number
from tui.app.widgets.reader import ReaderLine
from tui.app.widgets.text import TextPanel
from tui.link.chat import ChatLine, ChatRefused, check, lines_from
from tui.player import settings, store
from tui.player.clock import Clock, TimeControl, TimeControlError

CHAT_KEPT = 200
"""Chat lines the screen keeps (the panel scrolls through them)."""


class RoomPlayScreen(HostedGameScreen):
    """A room's game: board, clocks, whose turn, offers and the result."""

    DEFAULT_CSS = """
    RoomPlayScreen { layout: horizontal; }
    RoomPlayScreen #moves-scroll { min-height: 3; }
    RoomPlayScreen #chat-scroll { height: 1fr; min-height: 4; padding: 0 1;
                                  border: round $secondary; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "type_move", "Move", tooltip="Enter a move in notation"),
        Binding("x", "resign", "Resign", tooltip="Resign this game (asks first)"),
        Binding("d", "offer('draw')", "Offer draw", tooltip="Offer a draw"),
        Binding("u", "offer('takeback')", "Take back", tooltip="Ask to take back your move"),
        Binding("y", "answer(True)", "Accept", tooltip="Accept the offer"),
        Binding("n", "answer(False)", "Decline", tooltip="Decline the offer"),
        # not in the footer (full at 80 columns): the chat panel's title names them
        Binding("c", "chat", "Chat", show=False, tooltip="Say a line in the room's chat"),
        Binding("t", "mute", "Mute chat", show=False,
                tooltip="Hide the room's chat, or show it again"),
        Binding("pageup", "chat_page(-1)", "Chat back", show=False,
                tooltip="Scroll the chat back a page"),
        Binding("pagedown", "chat_page(1)", "Chat on", show=False,
                tooltip="Scroll the chat on a page"),
        Binding("e,q,escape", "leave", "Leave",
                tooltip="Leave the room (a player keeps the seat); q and Esc too, as in a game"),
    ]

    NOT_CONNECTED = "not connected to the room service"

    def __init__(self, snapshot: dict[str, Any]) -> None:
        super().__init__(snapshot)  # (the host's messages come later, from the event loop)
        self.received = time.monotonic()
        self.chat: list[ChatLine] = []
        self.muted = settings.load().chat_muted
        self.hidden = 0
        """Chat lines that came while the chat was muted."""
        self.chat_after_end = bool(snapshot.get("result"))
        """Whether the chat was asked for with the game over (a player then gets the
        spectators' lines too)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield ReaderLine(lambda: self.snap.get("names") or (), id="reader-line")
        with Vertical(id="board-panel"):
            yield board_class(self.initial.GAME)(self.initial, ascii=self.parlor.ascii_board,
                                                 id="board")
            yield TextPanel(id="summary")
        with Vertical(id="side"):
            yield ClockPanel(None, self.initial.PLAYERS, time.monotonic, id="clocks")
            yield TextPanel(id="status")
            with VerticalScroll(id="moves-scroll", can_focus=False):
                yield MoveList(id="moves")
            with VerticalScroll(id="chat-scroll", can_focus=False):
                yield Static(id="chat", markup=False)
        yield ParlorFooter()

    async def on_mount(self) -> None:
        self.title = get_game(self.initial.GAME).name
        self.board.focus()
        await self.connect()
        self.show_chat()
        self.send({"t": "chat_log"})
        self.apply(self.first)

    # -- from the service -----------------------------------------------------------
    def on_service(self, message: dict[str, Any]) -> None:
        kind = message.get("t")
        if kind == "room" and message.get("code") == self.first.get("code"):
            if self.is_mounted:
                self.apply(message)
            else:
                self.first = message
        elif kind == "chat" and message.get("code") == self.first.get("code"):
            self.chat_came(message)
        elif kind == "error" and self.is_current:
            self.notify(store.short(message.get("message", "error"), 120), severity="error")
            self.refresh_views()
        elif kind == "left":
            self.notify(store.short(message.get("why", "left the room"), 120), severity="warning")
            self.snap = {**self.snap, "you": -1}
            self.refresh_views()
        elif kind == "closed":
            self.snap = {**self.snap, "note": "the host's room service has gone away"}
            self.refresh_views()

    def apply(self, snap: dict[str, Any]) -> None:
        """Show the room as the service sent it (moves replayed with the engine)."""
        moves = snap.get("moves")
        moves = [m for m in moves if isinstance(m, str)] if isinstance(moves, list) else []
        common = 0
        while common < min(len(moves), len(self.texts)) and moves[common] == self.texts[common]:
            common += 1
        states, texts = self.states[: common + 1], self.texts[:common]
        try:
            for text in moves[common:]:
                states.append(states[-1].play_text(text))
                texts.append(text)
        except ParlorError as exc:
            self.notify(store.short(exc, 120), title="Bad move from the host", severity="error")
        self.states, self.texts = states, texts
        self.snap = snap
        if snap.get("result") and not self.chat_after_end:  # the spectators' lines too
            self.chat_after_end = True
            self.send({"t": "chat_log"})
        self.message = ""
        self.received = time.monotonic()
        self.refresh_views()

    def chat_came(self, message: dict[str, Any]) -> None:
        """Lines from the service: the whole log (``log``: it replaces what was shown)
        or new lines."""
        lines = lines_from(message, CHAT_KEPT)
        before = len(self.chat)
        if message.get("log") is True:
            self.chat = lines
            came = max(0, len(lines) - before)
        else:
            self.chat = self.chat + lines
            came = len(lines)
        self.chat = self.chat[-CHAT_KEPT:]
        if self.muted:
            self.hidden += came
        if self.is_mounted:
            self.show_chat()

    def show_chat(self) -> None:
        """The chat panel: the lines (author names and roles in words), or how many
        are hidden while it is muted."""
        if self.muted:
            plural = "" if self.hidden == 1 else "s"
            text = Text(f"Chat muted (t shows it): {self.hidden} line{plural} hidden",
                        "italic")
        elif not self.chat:
            text = Text("No chat yet: c says a line", "italic")
        else:
            text = Text("\n").join(Text(line.shown()) for line in self.chat)
        self.query_one("#chat", Static).update(text)
        panel = self.query_one("#chat-scroll", VerticalScroll)
        panel.border_title = ("Chat muted: t shows it" if self.muted
                              else "Chat: c says, t mutes, PgUp PgDn")
        panel.call_after_refresh(panel.scroll_end, animate=False)

    # -- views ------------------------------------------------------------------------
    def my_turn(self) -> bool:
        return (self.you == self.state.to_move and not self.snap.get("result")
                and bool(self.snap.get("started")) and self.state.outcome() is None)

    def refresh_views(self) -> None:
        board = self.board
        board.state = self.state
        board.last_move = (self.states[-2].parse_move(self.texts[-1]) if self.texts else None)
        board.previous = self.states[-2] if self.texts else None  # said in words, marked
        board.interactive = self.my_turn()
        self.query_one("#summary", Static).update(board.summary())
        self.query_one("#status", Static).update(self.status_text())
        self.query_one(MoveList).show(list(self.texts))
        self.show_clocks()

    def room_clock(self) -> Clock | None:
        """The room's clock as the service last read it (None: no clock, or readings that
        do not make one); the running side's time runs from when they came."""
        clock = self.snap.get("clock")
        if not isinstance(clock, dict):
            return None
        left = clock.get("left")
        if not (isinstance(left, list) and len(left) == 2
                and all(isinstance(x, (int, float)) for x in left)):
            return None
        try:
            control = TimeControl.parse(str(clock.get("control") or ""))
        except TimeControlError:
            control = None
        made = Clock(control or TimeControl(max(float(left[0]), float(left[1]), 0.0)))
        made.left = [float(left[0]), float(left[1])]
        running = clock.get("running")
        if running in (0, 1) and not self.snap.get("result"):
            made.start(running, self.received)
        return made

    def show_clocks(self) -> None:
        """The two clocks, the running one marked, low time flagged."""
        panel = self.query_one(ClockPanel)
        panel.clock = self.room_clock()
        panel.redraw()

    def status_text(self) -> Text:
        snap = self.snap
        names = self.state.PLAYERS
        people = snap.get("names") or ["", ""]
        present = snap.get("present") or [True, True]
        text = Text()
        code = store.short(snap.get("code", ""), 8)
        role = ("spectator" if self.you < 0 else f"you play {names[self.you]}")
        text.append(f"Room {code} ({role})\n", "bold")
        moving = self.state.to_move if snap.get("started") and not snap.get("result") else -1
        for side in (0, 1):
            who = store.short(people[side] or "(open seat)", 24)
            away = "" if present[side] or not people[side] else " (away)"
            mark = TO_MOVE if side == moving else "  "
            text.append(f"{mark}{names[side]}: {who}{away}\n", "bold" if side == moving else "")
        result = snap.get("result")
        if result:
            outcome = {"1-0": f"{names[0]} wins", "0-1": f"{names[1]} wins"}.get(result, "Draw")
            text.append(f"Game over: {outcome} {result} ({snap.get('termination', '')})",
                        "bold reverse")
            if snap.get("rating"):
                text.append(f"\nYour rating now: {store.short(snap['rating'], 30)}", "bold")
        elif not snap.get("started"):
            text.append(f"Waiting for an opponent: share the code {code}", "bold")
        elif self.my_turn():
            text.append(f"Move {move_number(self.state.ply)}: your move", "bold")
        else:
            thinking = " (thinking)" if snap.get("brain") == self.state.to_move else ""
            text.append(f"Move {move_number(self.state.ply)}: {names[self.state.to_move]} to move"
                        f"{thinking}")
        if snap.get("rated") is False and not result:
            text.append("\nNot rated: a move was taken back", "italic")
        offer = snap.get("offer")
        if isinstance(offer, dict) and not result:
            what = "for a draw" if offer.get("kind") == "draw" else "to take back a move"
            if offer.get("by") == self.you:
                text.append(f"\nYou asked {what}: waiting for the answer", "italic")
            elif self.you >= 0:
                text.append(f"\nYour opponent asks {what}: y accepts, n declines", "bold")
        if self.message:
            text.append(f"\n{self.message}", "italic")
        note = str(snap.get("note") or "")
        if note and not (result and note == snap.get("termination")):  # said once
            text.append(f"\n{store.short(note, 80)}", "italic")
        return text

    # -- what the player does -----------------------------------------------------------
    def send_move(self, text: str) -> None:
        self.send({"t": "move", "move": text})

    def action_resign(self) -> None:
        """Resign, after asking."""
        if self.you < 0 or self.snap.get("result"):
            self.app.bell()
            return

        def chosen(choice: str | None) -> None:
            if choice == "resign":
                self.send({"t": "resign"})

        self.app.push_screen(ChooseDialog("Resign this game?", [("Play on", "play"),
                                                                ("Resign", "resign")],
                                          current="play"), chosen)

    def action_offer(self, kind: str) -> None:
        """Offer a draw, or ask to take back a move."""
        if self.you < 0 or self.snap.get("result"):
            self.app.bell()
            return
        self.send({"t": "offer", "kind": kind})

    def action_answer(self, accept: bool) -> None:
        """Accept or decline the opponent's offer."""
        offer = self.snap.get("offer")
        if self.you < 0 or not isinstance(offer, dict) or offer.get("by") == self.you:
            self.app.bell()
            return
        self.send({"t": "answer", "accept": accept})

    def action_chat(self) -> None:
        """Say a line in the room's chat (a spectator's reaches the players only after
        the game)."""
        if self.link is None or not self.link.connected:
            self.notify("not connected to the room service", severity="error")
            return
        title = ("Say to the room" if self.you >= 0 or self.snap.get("result")
                 else "Say to the spectators (the players read it after the game)")

        def entered(text: str | None) -> None:
            if not text:
                return
            try:
                line = check(text)
            except ChatRefused as exc:
                self.notify(store.short(exc, 120), severity="warning")
                return
            self.send({"t": "say", "text": line})

        self.app.push_screen(PromptDialog(title), entered)

    def action_chat_page(self, direction: int) -> None:
        """Scroll the chat panel a page back (-1) or on (1)."""
        panel = self.query_one("#chat-scroll", VerticalScroll)
        if direction < 0:
            panel.scroll_page_up(animate=False)
        else:
            panel.scroll_page_down(animate=False)

    def action_mute(self) -> None:
        """Mute the chat (only a count of the lines hidden is shown), or show it again;
        the choice is kept for the next rooms."""
        self.muted = not self.muted
        self.hidden = 0
        settings.update(chat_muted=self.muted)
        self.notify("Chat muted" if self.muted else "Chat shown")
        self.show_chat()

    def action_leave(self) -> None:
        """Back to the room lists (a player's seat is kept for a few minutes)."""
        self.send({"t": "leave"})
        self.app.pop_screen()
