"""One package per game: its options, state, scoring, observation and view."""
