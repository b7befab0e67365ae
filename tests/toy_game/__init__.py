"""A toy fifth game, Count to Ten, for the test that adds a game to a copy's catalog
(tests/games/test_catalog.py): its declaration, its rules and its bots, laid out as every game is,
and nothing else of the site."""
