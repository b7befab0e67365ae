"""Psi Squad: cypher guessing for two to eight (engine, pure)."""
