"""AccountScreen and LeadersScreen: a hosted player's account (only under ``parlor host``;
see :mod:`tui.host.accounts`).

The account: the name claimed (or a field to claim one, once), the keys (and a field to
add one by pasting its public key line), the rating and deviation per game, the record
per game and the recent games, all as the host keeps them. The leaderboards: per game,
the players with enough rated games, best first.

Both talk to the host through :func:`tui.link.client.get_link`; whatever the host sends is
shown through :func:`tui.player.store.short`, never trusted to be well formed.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Header, Input, Label, Select, Static

from brains.glicko import check_rating
from engine.protocol import ParlorError
from engine.registry import GAMES, get_game
from tui.app.screens.base import ParlorScreen
from tui.app.widgets.footer import ParlorFooter
from tui.link import client
from tui.player import store
from tui.player.ratings import PlayerRating

RESULT_WORDS = {1.0: "won", 0.5: "drew", 0.0: "lost"}


def game_name(game_id: object) -> str:
    try:
        return get_game(str(game_id)).name
    except ParlorError:
        return store.short(game_id, 20)


def number(value: object, default: float = 0.0) -> float:
    """A number sent by the host (``default`` for anything else)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value)


def rows(value: object) -> list[list[Any]]:
    """The list of lists the host sent (empty for anything else)."""
    return [r for r in value if isinstance(r, list)] if isinstance(value, list) else []


def rating_text(rating: float, deviation: float) -> str:
    return f"{rating:.0f} (deviation {deviation:.0f})"


def profile_text(profile: dict[str, Any]) -> str:
    """The account's ratings, record and recent games, as lines."""
    records = {str(r[0]): r[1:4] for r in rows(profile.get("record")) if len(r) >= 4}
    lines = ["Ratings (room games on this host)"]
    rated = rows(profile.get("ratings"))
    for entry in rated[:len(GAMES) + 4]:
        if len(entry) < 4:
            continue
        game, rating, deviation, games = entry[:4]
        tally = records.get(str(game))
        record = ""
        if tally is not None:
            won, drew, lost = (int(number(t)) for t in tally)
            record = f"; {won} won, {drew} drawn, {lost} lost"
        lines.append(f"  {game_name(game)}: {rating_text(number(rating), number(deviation))}, "
                     f"{int(number(games))} rated games{record}")
    if not rated:
        lines.append("  none yet: play a person (F2) or a rated level in a room")
    unrated = [g for g in records if g not in {str(e[0]) for e in rated if e}]
    for game in unrated:
        won, drew, lost = (int(number(t)) for t in records[game])
        lines.append(f"  {game_name(game)}: unrated; {won} won, {drew} drawn, {lost} lost")
    lines.append("")
    lines.append("Recent games")
    recent = profile.get("recent")
    games = [g for g in recent if isinstance(g, dict)] if isinstance(recent, list) else []
    for game in games[:20]:
        side = 1 if game.get("side") == 1 else 0
        first = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(str(game.get("result")))
        if first is None:
            outcome = "unfinished"
        else:
            outcome = RESULT_WORDS[first if side == 0 else 1.0 - first]
        when = time.strftime("%Y-%m-%d", time.gmtime(number(game.get("finished"))))
        how = store.short(game.get("termination") or "", 30)
        lines.append(f"  {when}  {game_name(game.get('game'))} v "
                     f"{store.short(game.get('opponent') or '?', 24)}: {outcome} "
                     f"{store.short(game.get('result'), 8)}" + (f" ({how})" if how else ""))
    if not games:
        lines.append("  none yet")
    return "\n".join(lines)


class HostScreen(ParlorScreen):
    """A screen that asks the host for something and shows the answer."""

    def __init__(self) -> None:
        super().__init__()
        self.link: client.RoomLink | None = None

    async def on_mount(self) -> None:
        try:
            self.link = await client.get_link()
        except (OSError, ValueError) as exc:
            self.notify(f"The host cannot be reached: {store.short(exc)}", severity="error")
            return
        self.link.subscribe(self.on_service)
        self.ask_host()

    def on_unmount(self) -> None:
        if self.link is not None:
            self.link.unsubscribe(self.on_service)

    def ask_host(self) -> None:
        """Ask for what the screen shows."""

    def send(self, message: dict[str, Any]) -> None:
        if self.link is None or not self.link.send(message):
            self.notify("The host cannot be reached.", severity="error")

    def on_service(self, message: dict[str, Any]) -> None:
        if message.get("t") == "error" and self.is_current:
            self.notify(store.short(message.get("message", "error"), 120), severity="error")


class AccountScreen(HostScreen):
    """The hosted player's account: name, keys, ratings, record, recent games."""

    DEFAULT_CSS = """
    AccountScreen #account-name, AccountScreen #account-keys { height: auto; }
    AccountScreen #claim-row, AccountScreen #key-row { height: 1; margin-bottom: 1; }
    AccountScreen #claim-name { width: 30; margin-right: 1; }
    AccountScreen #add-key { width: 1fr; margin-right: 1; }
    AccountScreen #account-body { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", tooltip="Back"),
        Binding("f5", "refresh", "Refresh", tooltip="Ask the host again"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.profile: dict[str, Any] = {}
        self.profile_name = ""
        self.shown_once = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static("Your account on this host: asking...", id="account-name",
                         markup=False)
            with Horizontal(id="claim-row"):
                yield Input(placeholder="a name: 2-24 letters, digits, . _ -", id="claim-name",
                            max_length=24, compact=True)
                yield Button("Claim", id="claim", compact=True)
            yield Static("", id="account-keys", markup=False)
            with Horizontal(id="key-row"):
                yield Input(placeholder="paste a public key line: ssh-ed25519 AAAA... comment",
                            id="add-key", max_length=8192, compact=True)
                yield Button("Add key", id="add", compact=True)
            with VerticalScroll(id="account-body"):
                yield Static("", id="account-text", markup=False)
        yield ParlorFooter()

    def on_screen_resume(self) -> None:
        self.action_refresh()

    def ask_host(self) -> None:
        self.sub_title = "Account"
        self.send({"t": "profile"})

    def action_refresh(self) -> None:
        if self.link is not None:
            self.send({"t": "profile"})

    def on_service(self, message: dict[str, Any]) -> None:
        super().on_service(message)
        kind = message.get("t")
        if kind == "profile":
            self.show(message)
        elif kind == "claimed":
            self.notify(f"Your name is {store.short(message.get('name'), 24)} from now on.")
            self.action_refresh()
        elif kind == "key_added":
            self.query_one("#add-key", Input).value = ""
            minutes = int(number(message.get("minutes"), 10))
            self.notify(f"Key noted: {store.short(message.get('fingerprint'), 60)}. Log in "
                        f"with it within {minutes} minutes and it is one of this "
                        "account's keys.", timeout=30)
            self.action_refresh()

    def show(self, profile: dict[str, Any]) -> None:
        self.profile = profile
        name = str(profile.get("name") or "")
        claim = self.query_one("#claim-row")
        if bool(name) != bool(self.profile_name) or not self.shown_once:
            # the field to type in: the name's while there is none, else the key's
            self.query_one("#add-key" if name else "#claim-name", Input).focus()
        self.profile_name, self.shown_once = name, True
        if name:
            self.query_one("#account-name", Static).update(f"Name: {store.short(name, 24)}")
            claim.display = False
        else:
            shown = store.short(profile.get("shown") or "", 24)
            self.query_one("#account-name", Static).update(
                f"No name claimed yet (others see {shown!r}). Claim one: it is yours for "
                "good, and no one else can take it.")
            claim.display = True
        keys, pending = int(number(profile.get("keys"))), int(number(profile.get("pending")))
        waiting = f" ({pending} more waiting for its first login)" if pending > 0 else ""
        self.query_one("#account-keys", Static).update(
            f"Keys: {keys}{waiting}. Any of them logs in to this account. Add one by "
            "pasting its public key line (the .pub file), then log in with it:")
        self.query_one("#account-text", Static).update(profile_text(profile))

    @on(Button.Pressed, "#claim")
    @on(Input.Submitted, "#claim-name")
    def claim(self, event: Button.Pressed | Input.Submitted) -> None:
        event.stop()
        name = self.query_one("#claim-name", Input).value.strip()
        if not name:
            self.notify("type the name to claim first", severity="warning")
            return
        self.send({"t": "claim", "name": name})

    @on(Button.Pressed, "#add")
    @on(Input.Submitted, "#add-key")
    def add_key(self, event: Button.Pressed | Input.Submitted) -> None:
        event.stop()
        key = self.query_one("#add-key", Input).value.strip()
        if not key:
            self.notify("paste a public key line first", severity="warning")
            return
        self.send({"t": "add_key", "key": key})


class LeadersScreen(HostScreen):
    """Each game's leaderboard on this host."""

    DEFAULT_CSS = """
    LeadersScreen #leaders-body { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back", tooltip="Back"),
        Binding("f5", "refresh", "Refresh", tooltip="Ask the host again"),
    ]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.game = game if game in GAMES else next(iter(GAMES))

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            with Horizontal(classes="field"):
                yield Label("Game", classes="field-label")
                yield Select([(g.name, gid) for gid, g in GAMES.items()], value=self.game,
                             allow_blank=False, id="leaders-game", compact=True)
            with VerticalScroll(id="leaders-body"):
                yield Static("asking the host...", id="leaders-text", markup=False)
        yield ParlorFooter()

    def ask_host(self) -> None:
        self.sub_title = "Leaderboards"
        self.action_refresh()

    @on(Select.Changed, "#leaders-game")
    def game_chosen(self, event: Select.Changed) -> None:
        self.game = str(event.value)
        self.action_refresh()

    def action_refresh(self) -> None:
        if self.link is not None:
            self.send({"t": "leaders", "game": self.game})

    def on_service(self, message: dict[str, Any]) -> None:
        super().on_service(message)
        if message.get("t") == "leaders" and message.get("game") == self.game:
            self.query_one("#leaders-text", Static).update(leaders_text(message))


def leaders_text(board: dict[str, Any]) -> str:
    """A leaderboard as lines: rank, name, rating, deviation, games (you marked)."""
    least = int(number(board.get("min_games"), 5))
    lines = [f"{game_name(board.get('game'))}: players with at least {least} rated games",
             "", f"{'rank':>4}  {'name':<24} {'rating':>6} {'dev.':>5} {'games':>6}"]
    entries = [r for r in rows(board.get("rows")) if len(r) >= 6]
    for rank, name, rating, deviation, games, me in entries[:100]:
        mark = "  <- you" if me is True else ""
        lines.append(f"{int(number(rank)):>4}  {store.short(name, 24):<24} "
                     f"{number(rating):>6.0f} {number(deviation):>5.0f} "
                     f"{int(number(games)):>6}{mark}")
    if not entries:
        lines.append("  nobody yet")
    return "\n".join(lines)


def rank_text(account: dict[str, Any], game_id: str) -> str:
    """Home's line for the player's place on ``game_id``'s leaderboard, from the host's
    ``account`` message (empty before it came)."""
    ranks = account.get("ranks")
    if not isinstance(ranks, dict):
        return ""
    least = int(number(account.get("min_games"), 5))
    entry = ranks.get(game_id)
    if not isinstance(entry, list) or len(entry) != 2:
        return f"unranked: no rated room game yet ({least} to be ranked)"
    rank, of = (int(number(v)) for v in entry)
    if rank <= 0:
        return f"unranked: {of} of the {least} rated games to be ranked"
    return f"#{rank} of {of} on this host (F7: leaderboards)"


def hosted_rating(account: dict[str, Any], game_id: str) -> PlayerRating | None:
    """The player's rating in ``game_id`` as the host's database has it, from the
    host's ``account`` message: a fresh one in a game never rated there; None before the
    message came, or when its entry is damaged (nothing of it is trusted unchecked)."""
    ratings = account.get("ratings")
    if not isinstance(ratings, dict):
        return None
    entry = ratings.get(game_id)
    if entry is None:
        return PlayerRating.fresh(game_id)
    if not isinstance(entry, list) or len(entry) != 4:
        return None
    rating, deviation, volatility, games = entry
    try:
        check_rating(rating, deviation, volatility)
    except ParlorError:
        return None
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        return None
    return PlayerRating(game_id, float(rating), float(deviation), float(volatility), games)
