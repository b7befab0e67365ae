"""ESP's play screen: its board, its told sets and its lesson."""
