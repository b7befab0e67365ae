"""English for lists, for every layer (pure): the one way "Ada, Bo and Cy" is written."""

from __future__ import annotations


def and_list(parts: list[str]) -> str:
    """`parts` as one phrase: "a", "a and b", "a, b and c" ("" for none)."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


# -- how often: a number a rule or the set-up fixes, in words ----------------------------------

_TIMES = {1: "once", 2: "twice"}
_NTH = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}
_NUMBERS = {3: "three", 4: "four", 5: "five", 6: "six"}


def times(n: int) -> str:
    """How often, in words: "once", "twice", "three times", ..., "12 times"."""
    return _TIMES.get(n) or f"{_NUMBERS.get(n, str(n))} times"


def nth(n: int) -> str:
    """The ordinal, in words to the sixth ("third"), then in figures ("7th", "21st")."""
    if n in _NTH:
        return _NTH[n]
    last = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{last}"


# -- a seat's name in a sentence ------------------------------------------------------------
# One rule for every sentence that names a seat, here and nowhere else: the seat called "You"
# (the person playing on from a replay; the one person at a device, told as "you" by
# `games.base.named`) is the second person, so it takes "your", "yours", "you" inside a
# sentence and the verb without its -s; any other name is the third person singular and takes
# 's, a name ending in s too ("Jess's", "James's": one rule, said as it is written), and a
# bot's ("Ben (bot)'s").

YOU = "You"
_PLURAL = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}


def possessive(name: str) -> str:
    """The possessive before a noun: "Ada's", "Jess's", "your" (`capital` at a sentence's
    start)."""
    return "your" if name == YOU else f"{name}'s"


def theirs(name: str) -> str:
    """The possessive standing alone: "2 of Ada's", "2 of yours"."""
    return "yours" if name == YOU else f"{name}'s"


def name_in(name: str) -> str:
    """A name inside a sentence, not its first word: "Ada", "you" ("Hand it to you")."""
    return "you" if name == YOU else name


def with_verb(name: str, verb: str) -> str:
    """`name` and `verb` (written as it follows "she": "wins", "has") agreeing: "Ada wins",
    "Jess passes", "You win", "You have". The name starts the sentence or clause."""
    return f"{name} {agree(name, verb)}"


def agree(name: str, verb: str) -> str:
    """`verb` as it follows `name`, for a second verb of the same subject ("Ada has no legal
    move and passes", "You have no legal move and pass")."""
    return plural(verb) if name == YOU else verb


def plural(verb: str) -> str:
    """A verb as it follows "you" or "they", from its form after "she": "wins" -> "win",
    "passes" -> "pass", "tries" -> "try", "has" -> "have"; a phrase by its first word ("has
    no legal move" -> "have no legal move")."""
    verb, space, rest = verb.partition(" ")
    if space:
        return f"{plural(verb)} {rest}"
    if verb in _PLURAL:
        return _PLURAL[verb]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def capital(sentence: str) -> str:
    """The sentence with its first letter capitalised ("your turn ends" -> "Your turn ends")."""
    return sentence[:1].upper() + sentence[1:]


class Named(str):
    """A seat's name for a sentence template (`str.format`), which says in its format spec how
    the name stands: "{name}" as it is, "{name:'s}" its possessive ("Ada's", "your"),
    "{name:in}" inside a sentence ("you"), "{name:their}" the seat's own said again ("your"),
    and any other spec a verb that agrees with it ("{name:regains} 2 PSI": "Ada regains 2 PSI",
    "You regain 2 PSI"; inside a sentence "{name:in regains}": "and you regain 2 PSI")."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        name = str(self)
        if not spec:
            return name
        if spec == "'s":
            return possessive(name)
        if spec == "in":
            return name_in(name)
        if spec == "their":  # the seat's own, said again: "Ada opens their cards"
            return "your" if name == YOU else "their"
        if spec.startswith("in "):  # inside a sentence, with its verb: "and you draw"
            return f"{name_in(name)} {agree(name, spec[3:])}"
        return with_verb(name, spec)
