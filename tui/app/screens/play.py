"""PlayScreen: one game in progress, shown; the game itself is a :class:`tui.game.session.Session`.

The session holds the positions, players, clock, record, rating and brain turns; the
screen shows it, takes keys and dialogs, and runs the brains. The board posts
:class:`MoveEntered`; the screen plays the move in the session, autosaves the record
atomically and asks the next side to move. Brains think in a thread worker (asked by the
session's :class:`tui.game.session.BrainRequest`) that posts :class:`BrainThought` and
:class:`BrainMoved`; a result whose token, ply or position no longer match is dropped
by the session (after an undo, a new opponent or a new game).
"""

from __future__ import annotations

import random
import re
from time import monotonic
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Header, Static
from textual.worker import get_current_worker

from brains.protocol import Brain, Budget
from engine.protocol import AnyState, IllegalMoveError, Outcome, ParlorError
from engine.record import GameRecord
from engine.registry import GAMES, get_game
from tui.app import hints
from tui.app.dialogs.choose import HEADING, ChooseDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.messages import (
    BrainFailed,
    BrainMoved,
    BrainThought,
    HintReady,
    MoveEntered,
    SelectionRefused,
)
from tui.app.screens.base import ParlorScreen
from tui.app.widgets import board_class
from tui.app.widgets.board import BoardWidget
from tui.app.widgets.clock import ClockPanel
from tui.app.widgets.footer import ParlorFooter
from tui.app.widgets.move_list import MoveList, move_number
from tui.app.widgets.reader import ReaderLine
from tui.game import opponents
from tui.game.session import (
    TAKEBACK,
    BrainRequest,
    ClockReadings,
    LocalRatings,
    Pairing,
    Session,
    rating_key,
)
from tui.link.client import brain_slot
from tui.player import paths, store
from tui.player.clock import TimeControl
from tui.player.ratings import PlayerRating, PlayerRatings

PACES = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
"""The paces + and - step through (seconds a computer move waits)."""
DEFAULT_PACE = 1.0
"""Computer against computer: a move a second, so the game can be watched."""


TO_MOVE = "> "
"""Marks the side to move in the players' lines (as the clocks do): bold is not the
only cue."""


def short_error(error: object) -> str:
    """An error message for the status box: file paths shortened to their names."""
    return re.sub(r"(?:[A-Za-z]:)?[/\\][^\s:;,'\"]*[/\\]([^/\\\s:;,'\"]+)", r"\1", str(error))


def rule_news(before: AnyState, after: AnyState) -> str:
    """A rule that starts to apply with this move, in words ("" if none): a Morris side
    down to three may fly."""
    phase = getattr(after, "phase_of", None)
    was = getattr(before, "phase_of", None)
    if phase is None or was is None or after.outcome() is not None:
        return ""
    news = []
    for side in (0, 1):
        if phase(side) == "flying" and was(side) != "flying":
            name = after.PLAYERS[side]
            news.append(f"{name} is down to three: {name} may fly (move to any empty point)")
    return "; ".join(news)


HOSTED_UNRATED = ("on this host only room and correspondence games are rated (a room can "
                  "seat a rated level)")
"""Why a local game in a hosted session is unrated: the player's rating there is the
host's database's, moved by games the host saw played (docs/HOSTING.md, Ratings)."""


class PlayScreen(ParlorScreen):
    """Play a game: board, whose turn, the move list, the result and a brain's thinking."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape", "home", "Home", tooltip="Back to Home (this game is kept)"),
        Binding("g", "switch_game", "Game", tooltip="Switch to another game"),
        Binding("o", "switch_opponent", "Opponent", tooltip="Choose another opponent"),
        Binding("n", "new_game", "New", tooltip="Start this game again"),
        Binding("u", "undo", "Undo", tooltip="Back to your previous turn"),
        Binding("t", "hint", "Hint", tooltip="Show a suggested move on the board"),
        Binding("m", "type_move", "Move", tooltip="Enter a move in notation"),
        Binding("f", "flip", "Flip", tooltip="Turn the board round"),
        Binding("p", "pause", "Pause", show=False, tooltip="Pause or go on (computers wait)"),
        Binding("plus,equals_sign", "pace(1)", "Slower", show=False,
                tooltip="Computer against computer: slower"),
        Binding("minus", "pace(-1)", "Faster", show=False,
                tooltip="Computer against computer: faster"),
        Binding("s", "save", "Save", tooltip="Save this game under a name"),
        Binding("r", "open_saved", "Saved", tooltip="Open saved games"),
        Binding("x", "explore", "Explorer", show=False,
                tooltip="The moves played from here in your games"),
    ]

    def __init__(self, history: list[AnyState], moves: list[Any], players: tuple[str, str],
                 *, seed: int | None = None, game_file: store.GameFile | None = None,
                 refused: dict[int, str] | None = None,
                 clock: TimeControl | None = None,
                 comments: dict[int, str] | None = None,
                 unrated: str | None = None,
                 readings: ClockReadings | None = None) -> None:
        super().__init__()
        if unrated is None and paths.hosted():
            unrated = HOSTED_UNRATED  # a hosted player's rating is the host's
        self.session = Session(history, moves, players, control=clock, readings=readings,
                               comments=comments, unrated=unrated, seed=seed)
        """The game itself (positions, players, clock, record, rating, brain turns):
        the screen only shows it and runs its brains."""
        self.seed = seed
        self.store = game_file or store.GameFile()
        """Where this game is kept (its own file: no other game or session writes it)."""
        self.last_note = ""
        """The note of the thinking brain's latest thought (e.g. a fallback's)."""
        self.pace = DEFAULT_PACE
        """Seconds between moves when computers play each other (+ and - change it)."""
        self.paused = False
        """True while p holds the computers (a brain to move does not start)."""
        self.pace_timer: Timer | None = None
        self.refused = dict(refused or {})
        """Sides whose player, read from a record, may not play (side -> why)."""
        self.unsaved = False
        """True while the latest moves could not be written (the warning is shown)."""
        self.save_error = ""
        self.request: BrainRequest | None = None
        """The brain request being thought about (its token is the session's)."""
        self.budget: Budget | None = None
        self.brains: dict[int, Brain] = {}
        self.hint_budget = Budget()
        """The budget of the hint being looked for (stopped when the screen goes)."""
        self.thinking: Text | None = None
        self.message = ""
        self.rating_line = ""
        """What the end of the game did to the player's rating, shown under the result."""
        self._player_rating: PlayerRating | None = None

    # -- model helpers --------------------------------------------------------------
    @property
    def history(self) -> list[AnyState]:
        """The positions so far, the start first (the session's)."""
        return self.session.history

    @property
    def moves(self) -> list[Any]:
        return self.session.moves

    @property
    def players(self) -> tuple[str, str]:
        return self.session.players

    @property
    def clock(self) -> TimeControl | None:
        """The game's time control (None: no clock)."""
        return self.session.control

    @property
    def forfeit(self) -> Outcome | None:
        """Set when a flag falls (the position itself is not over)."""
        return self.session.forfeit

    @property
    def unrated(self) -> str | None:
        """Why this game is not rated (a takeback, a hint, …), or None; kept in the record,
        so a resumed game stays unrated."""
        return self.session.unrated

    @property
    def rating_settled(self) -> bool:
        return self.session.settled

    @property
    def comments(self) -> dict[int, str]:
        return self.session.comments

    @property
    def token(self) -> int:
        """Id of the current brain request; results for another token are stale."""
        return self.session.token

    @property
    def dropped(self) -> int:
        """How many stale brain results were dropped (for tests and the log)."""
        return self.session.dropped

    @property
    def state(self) -> AnyState:
        """The current position."""
        return self.session.state

    @property
    def game_id(self) -> str:
        """Id of the game being played."""
        return self.state.GAME

    @property
    def board(self) -> BoardWidget[Any, Any]:
        """The board widget."""
        return self.query_one(BoardWidget)

    def human_to_move(self) -> bool:
        """True when a person should move now."""
        return self.outcome() is None and opponents.is_human(self.players[self.state.to_move])

    def outcome(self) -> Outcome | None:
        """How the game ended: on the board, or on time."""
        return self.session.outcome()

    def brain_for(self, side: int) -> Brain:
        """The brain playing ``side`` (built once per spec)."""
        if side in self.refused:
            raise ValueError(self.refused[side])
        brain = self.brains.get(side)
        if brain is None or brain.spec != self.players[side]:
            seed = None if self.seed is None else self.seed + side
            brain = self.brains[side] = opponents.make_brain(self.players[side], self.game_id, seed)
        return brain

    # -- the player's rating ---------------------------------------------------------
    def rated_pairing(self) -> Pairing | None:
        """The person's side and the rated level they play, when this game can be rated
        (see :meth:`Session.rated_pairing`)."""
        return self.session.rated_pairing()

    def make_unrated(self, reason: str) -> bool:
        """Make this game unrated for ``reason``; True the first time a game that was
        rated becomes unrated (the caller says so, once)."""
        if not self.session.make_unrated(reason):
            return False
        self.notify_unrated(reason)
        return True

    def notify_unrated(self, reason: str) -> None:
        self.notify(f"This game is now unrated: {reason}.", title="Unrated",
                    severity="warning")

    def settle_rating(self) -> None:
        """At the end of a rated game, count it in the player's rating, once: keyed by
        the game's id, so finishing it again (or a resumed copy of it) changes nothing."""
        ratings = PlayerRatings()
        sink = LocalRatings(ratings, self.game_id, rating_key(self.store.id))
        try:
            settled = self.session.settle(sink)
        except ValueError as exc:
            self.rating_line = f"Rating not updated: {store.short(exc)}"
            return
        if settled is None:
            return
        if not settled:
            self.rating_line = f"Unrated: {self.unrated}"
            return
        [(_side, change)] = settled
        if change is None:
            now = ratings.current(self.game_id).text(self.parlor.ascii_board)
            self.rating_line = f"Rating {now} (this game was counted already)"
            return
        before, after = change
        self._player_rating = after
        change_text = f"({round(after.rating - before.rating):+d})"
        self.rating_line = f"Rating {after.text(self.parlor.ascii_board)} {change_text}"
        if ratings.problem:
            self.rating_line += f"\n{store.short(ratings.problem, 120)}"

    def rating_status(self) -> str:
        """The line about the rating while a rated game goes on ("" if it is not rated)."""
        pairing = self.rated_pairing()
        if pairing is None:
            return ""
        if self.rating_settled:
            return self.rating_line
        if self.unrated is not None:
            return f"Unrated: {self.unrated}"
        mine = self.player_rating().text(self.parlor.ascii_board)
        return f"Rated: you {mine} v {round(pairing[1].rating)}"

    def player_rating(self) -> PlayerRating:
        """The player's rating in this game (read once, and again after the game)."""
        if self._player_rating is None or self._player_rating.game != self.game_id:
            self._player_rating = PlayerRatings().current(self.game_id)
        return self._player_rating

    # -- composing ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        ascii_board = self.parlor.ascii_board
        yield Header()
        yield ReaderLine(lambda: self.players, id="reader-line")
        with Vertical(id="board-panel"):
            board = board_class(self.game_id)(self.state, ascii=ascii_board, id="board")
            yield board
            yield Static(id="summary", markup=False)
            yield Static(board.legend(), id="legend", markup=False)
        with Vertical(id="side"):
            yield Static(id="save-warning", markup=False)
            if self.session.clock is not None:
                yield ClockPanel(self.session.clock, self.state.PLAYERS, self.now,
                                 id="clock")
            yield Static(id="status", markup=False)
            yield Static(id="thinking", markup=False)
            with VerticalScroll(id="moves-scroll", can_focus=False):
                yield MoveList(id="moves")
        yield ParlorFooter()

    def on_mount(self) -> None:
        self.title = get_game(self.game_id).name
        board = self.board
        board.focus()
        humans = [side for side in (0, 1) if opponents.is_human(self.players[side])]
        board.flipped = humans == [board.TOP_SIDE]
        for attribute in ("path", "cursor", "ascii", "reader", "interactive", "state"):
            self.watch(board, attribute, self.update_summary, init=False)
        if self.moves:  # resumed: the side to move's clock runs from now (a new game's
            self.session.start_clock(self.now())  # clocks start with its first move)
        self.next_turn()

    def update_summary(self) -> None:
        """Redraw the line under the board (counts, the cursor square, a pending step)."""
        self.query_one("#summary", Static).update(self.board.summary())
        self.query_one("#legend", Static).update(self.board.legend())

    def on_unmount(self) -> None:
        self.stop_brain()
        self.hint_budget.stop.set()
        if self.session.clock is not None and not self.session.over:
            self.autosave(show=False)  # the clocks as they are now: resumed, it goes on so
        self.store.release()

    def now(self) -> float:
        """Seconds on the steady clock the game's clocks run on."""
        return monotonic()

    # -- the game loop --------------------------------------------------------------
    def next_turn(self) -> None:
        """Show the position, autosave, count a finished rated game in the player's
        rating, and start a brain if one is to move."""
        self.stop_brain()
        if self.is_mounted:
            self.session.start_clock(self.now())
        self.autosave()
        self.settle_rating()
        state = self.state
        if self.clock is not None and self.is_mounted:
            self.query_one(ClockPanel).redraw()
        if self.outcome() is None and not opponents.is_human(self.players[state.to_move]):
            if self.paused:
                self.thinking = Text("paused: p goes on")
            elif self.moves and self.pace > 0 and not any(map(opponents.is_human, self.players)):
                ply = len(self.history)  # computer against computer: one move per pace

                def go() -> None:
                    if ply == len(self.history) and not self.paused and self.budget is None:
                        self.start_brain()
                        self.refresh_views()

                self.pace_timer = self.set_timer(self.pace, go)
            else:
                self.start_brain()
        self.refresh_views()

    def action_pause(self) -> None:
        """Pause or go on (a brain to move waits while paused)."""
        self.paused = not self.paused
        self.message = "paused: p goes on" if self.paused else ""
        self.next_turn()

    def action_pace(self, step: int) -> None:
        """Slower (+) or faster (-) computer-against-computer play."""
        now = PACES.index(self.pace) if self.pace in PACES else 0
        self.pace = PACES[max(0, min(len(PACES) - 1, now + step))]
        self.message = (f"computer moves every {self.pace:g} s" if self.pace
                        else "no pause between computer moves")
        self.refresh_views()

    def play(self, move: Any) -> None:
        """Play ``move`` (legal in the current state) and continue."""
        before = self.state
        self.session.play(move, self.now())
        self.message = rule_news(before, self.state)
        self.next_turn()

    def record(self) -> GameRecord:
        """The game so far as a record (with the clocks as they are now)."""
        return self.session.record(self.now())

    @on(ClockPanel.FlagFell)
    def on_flag_fell(self, event: ClockPanel.FlagFell) -> None:
        """The side to move ran out of time: the other side wins on time."""
        if self.session.flag(self.now()) is not None:
            self.next_turn()

    def autosave(self, show: bool = True) -> None:
        """Keep the game in its own file (atomically). A failure shows a warning that stays
        until a save succeeds, and leaving the game then asks first (``show``: the screen
        is still there to show it)."""
        try:
            self.store.save(self.record())
        except OSError as exc:
            self.unsaved = True
            self.save_error = f"autosave failed: {exc.strerror or exc}"
        else:
            self.unsaved = False
            self.save_error = ""
        if self.is_mounted and show:
            self.show_save_warning()

    def show_save_warning(self) -> None:
        """Show or hide the warning that the latest moves are not saved."""
        warning = self.query_one("#save-warning", Static)
        warning.update(f"NOT SAVED: {store.short(self.save_error)}; s saves under a name, "
                       f"q asks where to save" if self.unsaved else "")
        warning.display = self.unsaved

    @on(MoveEntered)
    def on_move_entered(self, event: MoveEntered) -> None:
        event.stop()
        if not self.human_to_move():
            self.app.bell()
            return
        if event.move not in self.state.legal_moves():
            self.notify(f"illegal move {event.move!r}", severity="error")
            return
        self.play(event.move)

    @on(SelectionRefused)
    def on_selection_refused(self, event: SelectionRefused) -> None:
        event.stop()
        self.message = event.why
        self.query_one("#status", Static).update(self.status_text())

    # -- brains ---------------------------------------------------------------------
    def start_brain(self) -> None:
        """Ask the brain to move for the current position (in a thread worker)."""
        side = self.state.to_move
        try:
            brain = self.brain_for(side)
        except Exception as exc:  # noqa: BLE001 - a model that will not load: say so, do not crash
            self.message = (f"{store.short(self.players[side])} cannot play: {short_error(exc)} "
                            f"(press o to choose another opponent)")
            return
        request = self.session.brain_request(self.now())
        if request is None:
            return
        self.request = request
        self.budget = (brain.default_budget() if request.seconds is None
                       else Budget(seconds=request.seconds))
        self.thinking = Text(f"{self.players[side]} is thinking…")
        self.think(brain, request.state, request.ply, self.budget, request.token)

    def stop_brain(self) -> None:
        """Stop any thinking brain; whatever it still reports is stale."""
        self.session.cancel_brain()
        self.request = None
        if self.budget is not None:
            self.budget.stop.set()
            self.budget = None
        self.thinking = None
        if self.pace_timer is not None:
            self.pace_timer.stop()
            self.pace_timer = None
        self.workers.cancel_group(self, "brain")

    @work(thread=True, exclusive=True, group="brain", exit_on_error=False)
    def think(self, brain: Brain, state: AnyState, ply: int, budget: Budget, token: int) -> None:
        """Run ``brain.think`` in a thread, posting progress and then the chosen move."""
        worker = get_current_worker()
        best = None
        try:
            with brain_slot():  # under the host: one of its brain-search slots
                for thought in brain.think(state, budget.start()):
                    best = thought
                    if worker.is_cancelled:
                        break
                    self.post_message(BrainThought(token, ply, thought))
            move = best.move if best is not None else brain.choose(state, Budget(depth=1))
        except Exception as exc:  # noqa: BLE001 - a brain bug must not take the app down
            self.post_message(BrainFailed(token, f"{brain.spec}: {exc}"))
            return
        self.post_message(BrainMoved(token, ply, state.key(), move))

    def result_applies(self, token: int, ply: int) -> bool:
        """True if a brain result for ``token`` at ``ply`` still applies."""
        return self.session.current(token, ply)

    @on(BrainThought)
    def on_brain_thought(self, event: BrainThought) -> None:
        if not self.result_applies(event.token, event.ply):
            return
        t = event.thought
        self.last_note = t.note
        state = self.state
        line, s = [], state
        for move in t.pv[:6]:
            try:
                line.append(s.format_move(move))
                s = s.play(move)
            except (ParlorError, IndexError, KeyError):
                break
        score = "?" if t.score is None else f"{round(t.score, 2) + 0.0:+.2f}"  # never -0.00
        self.thinking = Text(f"thinking: depth {t.depth}  score {score}\n{t.nodes:,} nodes  "
                             f"line {' '.join(line)}" + (f"\n{t.note}" if t.note else ""),
                             no_wrap=True, overflow="ellipsis")
        self.refresh_views()

    @on(BrainMoved)
    def on_brain_moved(self, event: BrainMoved) -> None:
        if not self.session.accepts(event.token, event.ply, event.for_key):
            self.log(f"dropped stale brain result {event}")
            return
        if event.move not in self.state.legal_moves():
            self.message = f"brain returned an illegal move {event.move!r}"
            self.refresh_views()
            return
        self.budget = None
        self.thinking = None
        note, self.last_note = self.last_note, ""
        spec = self.players[self.state.to_move]
        self.play(event.move)
        if note:  # e.g. perfect moved by its fallback: say so here and in the record
            self.message = f"{spec}: {note}"
            self.session.note(f"{spec}: {note}")
            self.autosave()
            self.refresh_views()

    @on(BrainFailed)
    def on_brain_failed(self, event: BrainFailed) -> None:
        if event.token == self.token:
            self.thinking = None
            self.message = f"brain failed: {short_error(event.error)} (press o to choose another)"
            self.refresh_views()

    # -- views ----------------------------------------------------------------------
    def refresh_views(self) -> None:
        """Push the model into the widgets."""
        self.show_save_warning()
        state = self.state
        board = self.board
        board.state = state
        board.last_move = self.moves[-1] if self.moves else None
        board.previous = self.history[-2] if len(self.history) > 1 else None
        board.interactive = self.human_to_move()
        self.query_one("#summary", Static).update(board.summary())
        self.query_one("#status", Static).update(self.status_text())
        self.query_one("#thinking", Static).update(self.thinking or "")
        texts, s = [], self.history[0]
        for move, nxt in zip(self.moves, self.history[1:], strict=True):
            texts.append(s.format_move(move))
            s = nxt
        self.query_one(MoveList).show(texts)
        scroll = self.query_one("#moves-scroll", VerticalScroll)
        # once the status has its new height (it grows when the game ends), the list
        # is scrolled again so the last move stays in view
        self.call_after_refresh(lambda: self.call_after_refresh(scroll.scroll_end, animate=False))

    def status_text(self) -> Text:
        """Players, whose turn it is or the result and why, and any message."""
        state = self.state
        names = state.PLAYERS
        text = Text()
        outcome = self.outcome()
        for side in (0, 1):
            to_move = side == state.to_move and outcome is None
            text.append(f"{TO_MOVE if to_move else '  '}{names[side]}: {self.players[side]}\n",
                        "bold" if to_move else "")
        if outcome is None:
            mover = self.players[state.to_move]
            who = "you" if opponents.is_human(mover) else mover
            text.append(f"Move {move_number(state.ply)}: {names[state.to_move]} to move ({who})",
                        "bold")
            rated = self.rating_status()
            if rated:
                text.append(f"\n{rated}")
        else:
            winner = outcome.winner
            verdict = "Draw" if winner is None else f"{names[winner]} wins"
            text.append(f"Game over: {verdict} {outcome.result.value}: {outcome.termination}",
                        "bold reverse")
            if self.rating_line:
                text.append(f"\n{self.rating_line}", "bold")
            text.append("\nn new game  g another  r replay it")
        if self.message:
            text.append(f"\n{self.message}", "italic")
        return text

    # -- actions --------------------------------------------------------------------
    def action_undo(self) -> None:
        """Take back moves until it is a person's turn again (at least one move)."""
        if len(self.history) == 1 or self.forfeit is not None:  # a game lost on time stays so
            self.app.bell()
            return
        self.stop_brain()
        self.session.take_back(self.session.people(), self.now())
        self.message = "took back"
        if self.make_unrated(TAKEBACK):
            self.message = "took back: this game is now unrated"
        self.next_turn()

    def action_new_game(self) -> None:
        """Start this game again with the same options and players (variants reseeded);
        while this one is unfinished, after asking (it stays on Home's list)."""
        if self.outcome() is not None or not self.moves:
            self.start_new_game()
            return

        def chosen(choice: str | None) -> None:
            if choice == "new":
                self.start_new_game()

        title = ("Start a new game? This one is unfinished: it stays on Home's list of "
                 "unfinished games (c there resumes it).")
        self.app.push_screen(ChooseDialog(title, [("Start a new game", "new"),
                                                  ("Go on with this one", "keep")],
                                          current="new"), chosen)

    def start_new_game(self) -> None:
        """Start this game again with the same options and players (variants reseeded)."""
        options = dict(self.state.options)
        if "seed" in options and options.get("variant", "standard") != "standard":
            options["seed"] = random.SystemRandom().randrange(1, 2**31)
        self.parlor.start_game(self.game_id, options, self.players, clock=self.clock)

    def action_switch_game(self) -> None:
        """Choose another game (default options); the same players (or a default brain)
        play it. This game stays kept and listed on Home."""
        choices = [(game.name, game_id) for game_id, game in GAMES.items()]

        def chosen(game_id: str | None) -> None:
            if game_id is None:
                return
            try:
                specs = opponents.brain_specs(game_id)
                players = tuple(
                    p if opponents.is_human(p) or p in specs
                    else opponents.default_opponent(game_id) for p in self.players)
            except ValueError as exc:
                self.parlor.show_error("Cannot start the game", str(exc))
                return
            self.parlor.start_game(game_id, {}, players)

        self.app.push_screen(ChooseDialog("Switch game", choices, current=self.game_id), chosen)

    def opponent_side(self) -> int:
        """The side the switch-opponent key changes."""
        brains = [side for side in (0, 1) if not opponents.is_human(self.players[side])]
        if len(brains) == 1:
            return brains[0]
        return self.state.to_move if brains else 1 - self.state.to_move

    def action_switch_opponent(self) -> None:
        """Choose another brain (or a person) for the opponent's side."""
        side = self.opponent_side()
        try:
            specs = [opponents.HUMAN, *opponents.brain_specs(self.game_id)]
        except ValueError as exc:
            self.parlor.show_error("Cannot list the opponents", str(exc))
            return
        choices = opponents.grouped_choices(specs, HEADING, self.game_id)
        title = f"Opponent for {self.state.PLAYERS[side]}"
        self.app.push_screen(ChooseDialog(title, choices, current=self.players[side]),
                             lambda spec: self.set_player(side, spec))

    def set_player(self, side: int, spec: str | None) -> None:
        """Let ``spec`` play ``side`` from the current position on."""
        if spec is None:
            return
        problem = opponents.spec_problem(spec)
        if problem:
            self.parlor.show_error("Cannot play that opponent", problem)
            return
        self.refused.pop(side, None)
        self.message = f"{self.state.PLAYERS[side]} is now {spec}"
        if self.session.set_player(side, spec):
            self.notify_unrated(self.unrated or "")
            self.message += ": this game is now unrated"
        self.next_turn()

    def action_hint(self) -> None:
        """Find the best move Parlor knows for the side to move (exact where a solver
        settles the position, else the strongest search) and show it on the board."""
        if self.state.outcome() is not None:
            self.app.bell()
            return
        self.message = "thinking of a hint…"
        if self.make_unrated("a hint was asked for"):
            self.message = "thinking of a hint… (this game is now unrated)"
        self.refresh_views()
        self.hint_budget.stop.set()
        self.hint_budget = Budget(seconds=hints.SOLVER_SECONDS + hints.SEARCH_SECONDS)
        self.find_hint(self.state, self.hint_budget)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def find_hint(self, state: AnyState, budget: Budget) -> None:
        """Find the hint for ``state`` and post it."""
        try:
            hint = hints.best_hint(state, budget.stop, self.seed)
        except Exception as exc:  # noqa: BLE001 - no hint is better than a crash
            self.post_message(HintReady(state.key(), None, str(exc)))
            return
        if hint is None:
            self.post_message(HintReady(state.key(), None, "no move found"))
            return
        how = f"exact: {hint.verdict}" if hint.exact else f"{hint.source}: {hint.verdict}"
        self.post_message(HintReady(state.key(), hint.move, sureness=how))

    @on(HintReady)
    def on_hint_ready(self, event: HintReady) -> None:
        if event.for_key != self.state.key():
            return
        if event.move is None:
            self.message = f"no hint: {short_error(event.error or 'no move found')}"
            self.query_one("#status", Static).update(self.status_text())
            return
        self.board.hint = event.move
        self.message = f"hint: {self.state.format_move(event.move)} ({event.sureness})"
        self.query_one("#status", Static).update(self.status_text())

    def action_type_move(self) -> None:
        """Type a move in the game's notation."""
        legal = self.state.legal_moves()
        example = self.state.format_move(legal[0]) if legal else ""
        self.app.push_screen(PromptDialog("Your move in notation", placeholder=example),
                             self.typed_move)

    def typed_move(self, text: str | None) -> None:
        """Play a typed move, or say clearly why it cannot be played."""
        if not text:
            return
        if not self.human_to_move():
            self.notify("it is not your turn", severity="warning")
            return
        try:
            move = self.state.parse_move(text)
        except IllegalMoveError:
            self.message = self.why_illegal(text)
            self.notify(self.message, title="Not played", severity="error")
            self.query_one("#status", Static).update(self.status_text())
            return
        except ValueError as exc:
            self.notify(str(exc), title="Not played", severity="error")
            return
        self.play(move)

    def why_illegal(self, text: str) -> str:
        """Why the well-formed move ``text`` cannot be played, in a player's words."""
        return self.state.why_illegal(text)

    def action_save(self) -> None:
        """Save the game under a name in the saved-games folder."""
        self.app.push_screen(PromptDialog("Save game as", placeholder="my game"), self.save_as)

    def save_as(self, name: str | None, replace: bool = False) -> None:
        """Write the record to the saved-games folder as ``name``; a saved game of that
        name is replaced only after asking."""
        if not name:
            return
        try:
            target = store.save_new(paths.save_path(name), self.record(), replace=replace)
        except FileExistsError:
            self.ask_replace(name)
            return
        except (OSError, ValueError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.notify(store.short(why), title="Not saved", severity="error")
            return
        self.message = f"saved as {target.name} (r opens the saved games)"
        self.notify(self.message, title="Saved")
        self.query_one("#status", Static).update(self.status_text())
        if self.unsaved:  # the moves so far are safe in that file
            self.unsaved = False
            self.save_error = ""
            self.show_save_warning()

    def ask_replace(self, name: str) -> None:
        """A saved game is called ``name``: replace it, choose another name, or cancel."""
        existing = paths.save_path(name).name

        def chosen(choice: str | None) -> None:
            if choice == "replace":
                self.save_as(name, replace=True)
            elif choice == "rename":
                self.app.push_screen(PromptDialog("Save game as", value=name), self.save_as)

        choices = [("Choose another name", "rename"), (f"Replace {existing}", "replace"),
                   ("Cancel", "cancel")]
        self.app.push_screen(ChooseDialog(f"A saved game is called {store.short(existing)}.",
                                          choices, current="rename"), chosen)

    def action_flip(self) -> None:
        """Turn the board round (the cursor keys follow what is on the screen)."""
        board = self.board
        if not board.CAN_FLIP:
            self.message = "this board looks the same from both sides"
        else:
            board.flipped = not board.flipped
            self.message = "board turned round" if board.flipped else "board as drawn"
        self.refresh_views()

    def action_home(self) -> None:
        """Back to Home; this game stays kept and listed there."""
        self.parlor.go_home()

    def action_open_saved(self) -> None:
        """Open the saved-games browser (this game stays kept)."""
        self.parlor.open_browser()

    def action_explore(self) -> None:
        """Open the explorer for the position on the board (the player's own games)."""
        from tui.app.screens.explorer import ExplorerScreen
        from tui.player.explorer import collections_for

        self.app.push_screen(ExplorerScreen(self.history[-1], collections_for()))
