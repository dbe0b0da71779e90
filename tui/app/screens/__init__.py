"""The app's screens: Home, Play, Saved games, Replay and Help."""
