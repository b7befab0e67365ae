"""Telepathic: cooperative wordless grid game (engine, pure)."""
