"""The link between a session's app and the host's room service: the wire protocol
(:mod:`tui.link.wire`) and the client end (:mod:`tui.link.client`). Nothing here draws."""
