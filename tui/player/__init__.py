"""The player's data, shared by the app and the host: where files go
(:mod:`tui.player.paths`), games kept and resumed (:mod:`tui.player.store`), settings,
the player's ratings and time controls (:mod:`tui.player.clock`)."""
