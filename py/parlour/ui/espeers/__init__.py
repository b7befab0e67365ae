"""ESPEERS' play screen: its cards, controls, table, decks and lesson."""
