"""Play by link, in CPython: whole games of every game and variant family played only by links
between devices in memory (Hypothesis chooses the order of delivery, duplicates and drops), every
device's audit verified at the end; then each attack a device must refuse, time claims, storage.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.fair.rng import Rng
from tests.by_link_group import Group

SETUPS = [
    ("esp", ("Ada", "Bo"), {}, None),
    ("esp", ("Ada", "Bo", "Cy"), {}, {2: "easy"}),
    ("espeers", ("Ada", "Bo"), {}, None),
    ("telepathic", ("Ada", "Bo"), {"arrangement": "pair", "mode": "first"}, None),
    ("telepathic", ("Ada", "Bo", "Cy"), {"arrangement": "director"}, None),
    ("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "four"}, None),
    ("telepathic", ("Ada", "Bo", "Cy", "Di"), {"arrangement": "teams"}, {3: "easy"}),
    ("psi-squad", ("Ada", "Bo"), {"length": 3}, None),
    ("psi-squad", ("Ada", "Bo", "Cy"), {"length": 3}, None),
    ("psi-squad", tuple("ABCDEFGH"), {"length": 3}, {5: "easy", 6: "easy"}),
]


@pytest.mark.parametrize("game, names, variant, bots", SETUPS)
@settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), seed=st.binary(min_size=4, max_size=4))
def test_a_whole_game_by_links_in_any_order_ends_verified_on_every_device(
    game, names, variant, bots, data, seed
):
    group = Group(game, names, variant, bots)
    group.play(lambda n: data.draw(st.integers(0, n - 1)), Rng(seed))
    group.check_the_end()
