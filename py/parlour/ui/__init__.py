"""Screens, SVG boards and input (browser only): clicks become actions, states become SVG."""
