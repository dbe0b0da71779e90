"""The Textual app: :mod:`tui.app.main` (ParlorApp), its screens, widgets and dialogs."""
