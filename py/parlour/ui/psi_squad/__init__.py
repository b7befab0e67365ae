"""Psi Squad's play screen: its notes, tables and lesson."""
