"""Translation of DNA into protein."""

from .code import amino_acid
from .sequence import clean


def codons(seq, frame=0):
    """The complete codons of `seq` read from offset `frame` (0, 1 or 2).

    A trailing partial codon (one or two leftover bases) is ignored.
    """
    if frame not in (0, 1, 2):
        raise ValueError(f"frame must be 0, 1 or 2, got {frame}")
    seq = clean(seq)
    return [seq[i:i + 3] for i in range(frame, len(seq) - 3, 3)]


def translate(seq, frame=0, to_stop=False):
    """Protein sequence of `seq` in `frame`; stops are '*'. With to_stop, stop before the first '*'."""
    protein = []
    for codon in codons(seq, frame):
        aa = amino_acid(codon)
        if to_stop and aa == "*":
            break
        protein.append(aa)
    return "".join(protein)
