"""Play by link: turn-based games with no server and no live connection (docs/links.md)."""

from parlour.match.by_link.device import LinkPlay
from parlour.match.by_link.packing import invite_checks, match_of
from parlour.match.by_link.sending import Outcome

__all__ = ["LinkPlay", "Outcome", "invite_checks", "match_of"]
