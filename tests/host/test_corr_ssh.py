"""Correspondence games end to end: real SSH clients against a host on 127.0.0.1. A
player who logs in is told on Home that a game waits for their move, opens it from F8,
plays one move by keys and leaves; the move is in the host's database and the opponent,
online, is told at once."""

from __future__ import annotations

import asyncio

from tests.host.conftest import Player, asyncssh, move
from tui.host.correspondence import DAY
from tui.host.db import CorrGame

F8 = "\x1b[19~"


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


async def test_log_in_see_your_move_play_it_and_leave(host, keys):
    data = host.rooms.host_data
    for key, name in ((keys[0], "Ann"), (keys[1], "Ben")):
        player = await asyncio.wrap_future(data.ensure_player(fingerprint(key)))
        assert await asyncio.wrap_future(data.claim_first_name(player, name)) == "claimed"
    now = data.now()
    game_id = "corr-00112233445566ff"
    await asyncio.wrap_future(data.corr_create(CorrGame(
        id=game_id, game="tictactoe", options={},
        seats=(fingerprint(keys[0]), fingerprint(keys[1])), names=("Ann", "Ben"),
        invited=None, moves=(), days=1, deadline=now + DAY, result=None, termination="",
        told=0, version=0, created=now, updated=now)))
    ben = await Player.connect(host.port, "ben-ssh", keys[1])
    ann = None
    try:
        await ben.expect("Play a person")
        ann = await Player.connect(host.port, "ann-ssh", keys[0])
        await ann.expect("Your move in 1 correspondence game (F8 opens them)")
        await ann.send(F8)
        await ann.expect("YOUR MOVE", "Tic-tac-toe against Ben", "1 day a move")
        await ann.keys("enter")
        await ann.expect("Move 1: your move", "Time left for this move: 23 h")
        await move(ann, "b2")
        await ann.expect("Move 1: their move")
        await ben.expect("Ann moved b2")  # online: told at once
        kept = data.corr_game(game_id)
        assert kept is not None and kept.moves == ("b2",) and kept.deadline is not None
        assert kept.deadline > now + DAY - 60  # the deadline moved to Ben's side
        await ann.keys("e")
        await ann.expect("THEIR MOVE", "your move in 0")
    finally:
        await ben.close()
        if ann is not None:
            await ann.close()
