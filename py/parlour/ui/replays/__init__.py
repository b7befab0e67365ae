"""Replays: the replay app and its screen."""
