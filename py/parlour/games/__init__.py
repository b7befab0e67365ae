"""The four games' engines behind one interface (pure)."""
