"""Seven Diamonds: the rules, the observation a seat gets, and its view."""
