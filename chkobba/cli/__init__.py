"""The command line: replay, arena and the terminal game."""
