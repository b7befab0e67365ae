"""Play by link: turn-based games with no server and no live connection (docs/links.md)."""

from parlour.match.by_link.device import LinkPlay, Outcome
from parlour.match.by_link.packing import invite_checks, match_of

__all__ = ["LinkPlay", "Outcome", "invite_checks", "match_of"]
