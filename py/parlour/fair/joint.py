"""Joint randomness: a seed no seat chose and every seat can check.

Every seat commits to 32 random bytes, then, once every commitment is in, all reveal. The seed is
SHA-256 over ("psi-parlour/joint", "1", match id, label, reveal of seat 0, seat 1, ...). As long
as one seat's bytes are random, the seed is: nobody can pick a reveal after seeing the others',
because the commitments came first. One `JointRandomness` object runs the protocol for one seat
and names the seat at fault for every way it can go wrong.
"""

from __future__ import annotations

import secrets

from parlour.errors import ProtocolError
from parlour.fair.commit import Context, Opening, check_opening, commit, is_commitment
from parlour.fair.encoding import digest

JOINT_TAG = "psi-parlour/joint"
JOINT_VERSION = "1"
RANDOM_BYTES = 32


class JointRandomness:
    """The commit-then-reveal protocol, seen from seat `me` of `seat_names`."""

    def __init__(
        self,
        match_id: str,
        seat_names: list[str],
        me: int,
        label: str = "seed",
        secret: bytes | None = None,
        nonce: bytes | None = None,
    ) -> None:
        if not 0 <= me < len(seat_names):
            raise ValueError("me must be one of the seats")
        self.match_id = match_id
        self.seat_names = list(seat_names)
        self.me = me
        self.label = label
        own = secrets.token_bytes(RANDOM_BYTES) if secret is None else secret
        context = Context(match_id, me)
        commitment, self._opening = commit(context, f"joint:{label}", own.hex(), nonce)
        self.commitments: dict[int, str] = {me: commitment}
        self.reveals: dict[int, bytes] = {}

    # -- the protocol, in order ---------------------------------------------------------

    def my_commitment(self) -> str:
        return self.commitments[self.me]

    def secret(self) -> tuple[bytes, bytes]:
        """Our random bytes and nonce, so a device that reloads commits to the same again."""
        return bytes.fromhex(self._opening.value), bytes.fromhex(self._opening.nonce)

    def receive_commitment(self, seat: int, commitment: object) -> None:
        name = self._name(seat)
        if not is_commitment(commitment):
            raise ProtocolError(f"{name} sent a commitment that is not a valid hash.", seat)
        if seat in self.commitments:
            raise ProtocolError(f"{name} sent a second commitment.", seat)
        self.commitments[seat] = commitment

    def all_committed(self) -> bool:
        return len(self.commitments) == len(self.seat_names)

    def my_reveal(self) -> Opening:
        """Our opening; only once every commitment is in, or others could pick after seeing it."""
        if not self.all_committed():
            missing = self._names(self.missing_commitments())
            raise ProtocolError(f"Cannot reveal yet: still waiting for {missing} to commit.")
        self.reveals.setdefault(self.me, bytes.fromhex(self._opening.value))
        return self._opening

    def receive_reveal(self, seat: int, opening: Opening) -> None:
        name = self._name(seat)
        if not self.all_committed():
            raise ProtocolError(
                f"{name} revealed before every commitment was in "
                f"(still waiting for {self._names(self.missing_commitments())}).",
                seat,
            )
        if seat in self.reveals:
            raise ProtocolError(f"{name} revealed twice.", seat)
        check_opening(
            Context(self.match_id, seat),
            self.commitments[seat],
            opening,
            who=name,
            what="their random contribution",
            step=None,
        )
        if opening.label != f"joint:{self.label}" or not _is_random_hex(opening.value):
            raise ProtocolError(f"{name}'s reveal is not a random contribution.", seat)
        self.reveals[seat] = bytes.fromhex(opening.value)

    def seed(self) -> bytes:
        missing = self.missing_reveals()
        if missing:
            raise ProtocolError(f"No seed yet: still waiting for {self._names(missing)} to reveal.")
        contributions = [self.reveals[s] for s in range(len(self.seat_names))]
        return digest((JOINT_TAG, JOINT_VERSION, self.match_id, self.label, *contributions))

    # -- what is missing, and who stalls ------------------------------------------------

    def missing_commitments(self) -> list[int]:
        return [s for s in range(len(self.seat_names)) if s not in self.commitments]

    def missing_reveals(self) -> list[int]:
        return [s for s in range(len(self.seat_names)) if s not in self.reveals]

    def check_deadline(self, now: float, deadline: float) -> None:
        """Past the deadline, name the seats that stalled (the caller keeps the clock: pure)."""
        if now < deadline:
            return
        missing = self.missing_commitments() or self.missing_reveals()
        if missing:
            stage = "commit" if self.missing_commitments() else "reveal"
            raise ProtocolError(f"{self._names(missing)} did not {stage} in time.", seat=missing[0])

    def _name(self, seat: int) -> str:
        if not isinstance(seat, int) or not 0 <= seat < len(self.seat_names):
            raise ProtocolError(f"A message came from an unknown seat ({seat!r}).")
        return self.seat_names[seat]

    def _names(self, seats: list[int]) -> str:
        names = [self.seat_names[s] for s in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _is_random_hex(value: object) -> bool:
    return (
        isinstance(value, str)
        and len(value) == 2 * RANDOM_BYTES
        and all(c in "0123456789abcdef" for c in value)
    )
