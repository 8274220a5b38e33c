"""Open reading frames: ATG ... stop, on both strands."""
from dataclasses import dataclass

from .code import START_CODONS, STOP_CODONS
from .sequence import clean, reverse_complement
from .translate import codons, translate


@dataclass(frozen=True)
class ORF:
    strand: str  # "+" or "-"
    frame: int
    start: int  # codon index of the ATG within the frame
    protein: str  # without the stop


def _scan(seq, strand, min_length):
    found = []
    for frame in (0, 1, 2):
        frame_codons = codons(seq, frame)
        index = 0
        while index < len(frame_codons):
            if frame_codons[index] in START_CODONS:
                for end in range(index, len(frame_codons)):
                    if frame_codons[end] in STOP_CODONS:
                        protein = translate("".join(frame_codons[index:end]))
                        if len(protein) >= min_length:
                            found.append(ORF(strand, frame, index, protein))
                        index = end
                        break
            index += 1
    return found


def find_orfs(seq, min_length=1):
    """ORFs that end in a stop codon, forward strand first, then reverse; by frame and position."""
    seq = clean(seq)
    return _scan(seq, "+", min_length) + _scan(reverse_complement(seq), "-", min_length)
