import pytest

from genekit import InvalidSequenceError, clean, gc_content, reverse_complement, transcribe


def test_clean_strips_numbers_and_spaces():
    assert clean("1 acgt acgu\n61 tt") == "ACGTACGTTT"


def test_clean_rejects_garbage():
    with pytest.raises(InvalidSequenceError, match="position 2"):
        clean("ACXT")


def test_reverse_complement():
    assert reverse_complement("AACGTN") == "NACGTT"


def test_transcribe():
    assert transcribe("ATGC") == "AUGC"


def test_gc_content_ignores_n():
    assert gc_content("GGCANN") == 0.75
    assert gc_content("") == 0.0
