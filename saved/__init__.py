"""The data shipped with Parlor: trained models (``models/``), example game records
(``games/``) and the measured ratings of each game's ladder of levels (``ratings/``,
written by ``parlor calibrate``, read by :mod:`brains.ladder`).

They are package data, found through :mod:`importlib.resources`, so a wheel installed
anywhere (``pip install .``, ``pipx install .``) reads them exactly as the source tree
does. A missing folder or file is a :class:`ShippedDataError` naming it, never a quiet
fallback to a weaker opponent or an empty list.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from engine.protocol import ParlorError


class ShippedDataError(ParlorError):
    """A data file that ships with Parlor is missing: the installation is incomplete.

    A ValueError, like the model store's ModelError, so the commands that report
    unusable data in one line report this one the same way."""


def data_path(package: str, *parts: str) -> Path:
    """Where the data ``parts`` of ``package`` are, as a filesystem path (not checked).

    Parlor is installed as files (source tree, wheel, pipx), so ``importlib.resources``
    hands back real paths; a zipped installation raises ShippedDataError.
    """
    path = resources.files(package).joinpath(*parts)
    if not isinstance(path, Path):
        shown = "/".join((package.replace(".", "/"), *parts))
        raise ShippedDataError(f"Parlor's data {shown} is not on the file system: "
                               "install Parlor as files (pip install .)")
    return path


def shipped_folder(package: str, *parts: str) -> Path:
    """The data folder ``parts`` of ``package``; ShippedDataError, in one line naming it,
    if it is missing."""
    folder = data_path(package, *parts)
    if not folder.is_dir():
        shown = "/".join((package.replace(".", "/"), *parts))
        raise ShippedDataError(f"Parlor's data folder {shown} is missing: reinstall Parlor")
    return folder


def shipped_file(package: str, *parts: str) -> Path:
    """The data file ``parts`` of ``package`` as a path; ShippedDataError if it is missing."""
    path = data_path(package, *parts)
    if not path.is_file():
        shown = "/".join((package.replace(".", "/"), *parts))
        raise ShippedDataError(f"Parlor's data file {shown} is missing: reinstall Parlor")
    return path


MODELS_DIR = data_path(__name__, "models")
"""The shipped models (read-only at run time; ``make models`` rewrites them in a clone).
Not checked here: the model store refuses a missing model or manifest when it is asked
for one, so brains that need no model still play."""


def games_dir() -> Path:
    """The shipped example game records."""
    return shipped_folder(__name__, "games")
