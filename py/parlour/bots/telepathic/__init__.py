"""Telepathic bots: a partner that reads the other's choices (see docs/bots-telepathic.md).

Levels: easy, medium and hard (`bot.choose_*`), and two reference players for measurement:
"plain" (plays toward its own win, never signals on purpose) and "naive" (only avoids its own
lose condition and guesses at the end) in `reference`.
"""
