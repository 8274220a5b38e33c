"""Small DNA/RNA sequence utilities: cleaning, complements, translation and ORF search."""
from .orfs import ORF, find_orfs
from .sequence import InvalidSequenceError, clean, gc_content, reverse_complement, transcribe
from .translate import codons, translate

__all__ = [
    "ORF",
    "InvalidSequenceError",
    "clean",
    "codons",
    "find_orfs",
    "gc_content",
    "reverse_complement",
    "transcribe",
    "translate",
]
