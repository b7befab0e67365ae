"""ESP: hex tiles, hidden symbols, sets of five (engine, pure)."""
