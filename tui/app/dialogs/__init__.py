"""Modal dialogs: choose one of several values, type a line of text, read an error."""
