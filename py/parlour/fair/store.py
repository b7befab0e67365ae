"""A seat's private store: its own openings and private values, kept on its own device only.

The store makes commitments (so the opening never has to travel), hands out an opening when the
rules reveal it, and serialises to JSON for the browser's storage so a reload loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parlour.errors import MalformedInput
from parlour.fair.commit import Context, Opening, commit
from parlour.fair.encoding import Json


@dataclass
class PrivateStore:
    """Openings by label, for one seat of one match."""

    context: Context
    openings: dict[str, Opening] = field(default_factory=dict)

    def commit(self, label: str, value: Json, replace: bool = False) -> str:
        """Seal `value` under `label` and return the commitment.

        A label names one hidden object, so it is used once; `replace` is for a choice that was
        taken back (undo) before anyone relied on it.
        """
        if label in self.openings and not replace:
            raise ValueError(f"label {label!r} is already committed")
        commitment, opening = commit(self.context, label, value)
        self.openings[label] = opening
        return commitment

    def value(self, label: str) -> Json:
        return self.openings[label].value

    def opening(self, label: str) -> Opening:
        return self.openings[label]

    def __contains__(self, label: str) -> bool:
        return label in self.openings

    def to_json(self) -> dict[str, Json]:
        return {
            "match_id": self.context.match_id,
            "seat": self.context.seat,
            "openings": [o.to_json() for o in self.openings.values()],
        }

    @classmethod
    def from_json(cls, data: object) -> PrivateStore:
        if not isinstance(data, dict) or not isinstance(data.get("openings"), list):
            raise MalformedInput("That saved private store is damaged.")
        match_id, seat = data.get("match_id"), data.get("seat")
        if not isinstance(match_id, str) or not isinstance(seat, int):
            raise MalformedInput("That saved private store is damaged.")
        openings = [Opening.from_json(o) for o in data["openings"]]
        return cls(Context(match_id, seat), {o.label: o for o in openings})
