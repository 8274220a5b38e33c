import pytest

from genekit import codons, find_orfs, translate


def test_partial_codon_ignored():
    assert codons("ATGGCCA") == ["ATG", "GCC"]


def test_frames():
    assert codons("AATGGCCT", frame=1) == ["ATG", "GCC"]


def test_bad_frame():
    with pytest.raises(ValueError):
        codons("ATG", frame=3)


def test_translate_with_ambiguous_base():
    assert translate("ATGNNNGCCA") == "MXA"


def test_no_orf_without_start_codon():
    assert find_orfs("CCCTTTGGGTAA") == []
