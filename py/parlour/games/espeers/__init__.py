"""ESPEERS: a two-player psychic card duel (engine, pure)."""
