"""AI players that see only what their seat may know (pure)."""
