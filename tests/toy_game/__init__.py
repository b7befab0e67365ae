"""A toy fifth game, Second Sight, for the test that adds a game to a copy's catalog
(tests/games/test_toy_game.py): a small hidden-information game with everything a game of the
site has (its declaration, state, actions, rules, views, words and facts; its bots, screen and
lesson), all in this folder, and nothing else of the site.

Each round both players seal a Zener symbol, then each in turn guesses the other's; both devices
then open their seals, and a right guess scores a point. After the rounds, the most points wins.
`entry.py` holds the one catalog entry that registers it.
"""
