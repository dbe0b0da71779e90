"""A game being played, without any UI: who plays each side (:mod:`tui.game.opponents`)
and the session that holds the game's history, clock, record, rating and brain turns
(:mod:`tui.game.session`), used alike by the app's Play screen and the host's rooms."""
