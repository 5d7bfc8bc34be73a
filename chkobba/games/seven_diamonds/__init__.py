"""Seven Diamonds: options, constants, state (rules and scoring), observation,
determinize (the constrained sampler) and view."""
