"""Cleaning and simple transforms of nucleotide sequences."""

DNA = frozenset("ACGTN")
_COMPLEMENT = str.maketrans("ACGTN", "TGCAN")


class InvalidSequenceError(ValueError):
    """A sequence contains characters that are not nucleotides."""


def clean(seq):
    """Upper-case `seq`, drop whitespace and digits (as in GenBank dumps), turn U into T.

    Raises InvalidSequenceError naming the first bad character and its position.
    """
    out = []
    for index, ch in enumerate(seq):
        if ch.isspace() or ch.isdigit():
            continue
        ch = ch.upper()
        if ch == "U":
            ch = "T"
        if ch not in DNA:
            raise InvalidSequenceError(f"invalid nucleotide {ch!r} at position {index}")
        out.append(ch)
    return "".join(out)


def reverse_complement(seq):
    """The reverse complement of a DNA sequence (N stays N)."""
    return clean(seq).translate(_COMPLEMENT)[::-1]


def transcribe(seq):
    """DNA -> mRNA (T becomes U)."""
    return clean(seq).replace("T", "U")


def gc_content(seq):
    """Fraction of G and C among the unambiguous bases (N is ignored); 0.0 for no bases."""
    seq = clean(seq)
    known = [b for b in seq if b != "N"]
    if not known:
        return 0.0
    return sum(1 for b in known if b in "GC") / len(known)
