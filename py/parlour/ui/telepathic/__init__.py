"""Telepathic's play screen: its grid, controls and lesson."""
