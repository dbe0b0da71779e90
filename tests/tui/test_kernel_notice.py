"""The app says once that a compiled kernel is being prepared (its first compilation or
load takes seconds), whichever thread prepares it."""

from __future__ import annotations

import asyncio
import itertools
import threading

from brains import kernels
from tui.app.main import ParlorApp

_names = itertools.count()


def notices(app: ParlorApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_a_kernel_prepared_in_a_worker_thread_is_announced_once() -> None:
    what = f"the test kernel {next(_names)} {threading.get_ident()}"
    app = ParlorApp()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()

        def search() -> None:  # a search worker's first call of a kernel, twice
            for _ in range(2):
                with kernels.preparing(what):
                    pass

        await asyncio.to_thread(search)
        await pilot.pause()
        said = [n for n in notices(app) if what in n]
        assert said == [f"Preparing {what}… (once: a few seconds)"]


async def test_a_closed_app_no_longer_listens() -> None:
    what = f"the test kernel {next(_names)} {threading.get_ident()}"
    app = ParlorApp()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
    with kernels.preparing(what):  # nobody to tell: no error, nothing shown
        pass
    assert not [n for n in notices(app) if what in n]
