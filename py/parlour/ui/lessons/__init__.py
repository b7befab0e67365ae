"""The tutorials' lessons, one module per game (each has a `LESSON`: see ui/tutorial.py)."""
