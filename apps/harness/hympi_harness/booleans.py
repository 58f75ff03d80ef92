"""The one boolean vocabulary of hympi (as lib/include/hympi/enums.hpp's parse_bool):
1/0, true/false, yes/no, on/off, in any case."""

_PAIRS = (("1", "0"), ("true", "false"), ("yes", "no"), ("on", "off"))


def parse_bool(text):
    """True or False for a word of the vocabulary, None for anything else."""
    word = str(text).lower()
    for yes, no in _PAIRS:
        if word == yes:
            return True
        if word == no:
            return False
    return None


def is_set(text):
    """An environment switch: on when it holds a true word ("1", "yes", ...)."""
    return parse_bool(text or "") is True
