"""ParlorFooter: Textual's footer (compact, no command palette key) composed again only
when the keys it shows change.

Textual's Footer composes itself anew, a new widget for every key, whenever the screen
says its bindings may have changed: on every focus change, every screen shown. That was
a third of the CPU a hosted session's app spent on its way from Home to a room's game
(21 footers composed, 0.5 s). This one compares the keys it would show with those it
shows, and does nothing when they are the same.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer


class ParlorFooter(Footer):
    """The footer of every Parlor screen."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(compact=True, show_command_palette=False, **kwargs)
        self.composed: tuple[Any, ...] | None = None
        """The keys shown, as :meth:`keys` gave them (None: none composed yet)."""

    def keys(self) -> tuple[Any, ...]:
        """What the footer shows: each key shown, its label, action, group, whether it
        is enabled and its tooltip."""
        app = self.app
        return tuple((binding.key, app.get_key_display(binding), binding.description,
                      binding.action, binding.group, enabled, tooltip)
                     for _, binding, enabled, tooltip in self.screen.active_bindings.values()
                     if binding.show)

    async def recompose(self) -> None:
        if self.is_attached and self._bindings_ready:  # (composed empty until then)
            keys = self.keys()
            if keys == self.composed:
                return
            self.composed = keys
        await super().recompose()
