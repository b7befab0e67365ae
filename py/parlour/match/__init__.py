"""A match as config, public seed and an append-only log of actions (pure)."""
