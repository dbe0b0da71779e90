import asyncio
from tests.host.conftest import Player

async def test_smoke(host, keys):
    a = await Player.connect(host.port, "alice", keys[0])
    try:
        await a.expect("Play a person")
        await a.keys("f2")
        await a.expect("Create room")
        print(a.text(0)[-2000:])
    finally:
        await a.close()
