"""The standard genetic code (NCBI translation table 1)."""

_BASES = "TCAG"
_AMINO = "FFLLSSSSYY**CC*WLLLLPPPPHHQQRRRRIIIMTTTTNNKKSSRRVVVVAAAADDEEGGGG"

CODON_TABLE = {
    a + b + c: _AMINO[16 * i + 4 * j + k]
    for i, a in enumerate(_BASES)
    for j, b in enumerate(_BASES)
    for k, c in enumerate(_BASES)
}
START_CODONS = frozenset({"ATG"})
STOP_CODONS = frozenset(codon for codon, aa in CODON_TABLE.items() if aa == "*")


def amino_acid(codon):
    """One-letter amino acid of a codon; 'X' when the codon contains N."""
    return CODON_TABLE.get(codon, "X")
