from genekit import codons, find_orfs, translate


def test_exact_multiple_keeps_last_codon():
    assert codons("ATGGCC") == ["ATG", "GCC"]


def test_single_codon():
    assert translate("ATG") == "M"


def test_translate_full_gene():
    assert translate("ATGGCCAAATGA") == "MAK*"


def test_to_stop():
    assert translate("ATGAAATAG", to_stop=True) == "MK"


def test_orf_ending_at_sequence_end():
    assert [o.protein for o in find_orfs("ATGAAATAG")] == ["MK"]


def test_frame_two_exact_length():
    assert codons("CCATGTAA", frame=2) == ["ATG", "TAA"]


def test_partial_codon_still_ignored():
    assert codons("ATGGCCAT") == ["ATG", "GCC"]


def test_orf_on_forward_strand():
    orfs = find_orfs("CCATGAAATAGCC")
    assert [(o.strand, o.frame, o.protein) for o in orfs] == [("+", 2, "MK")]
