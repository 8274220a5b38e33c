from search import SearchIndex, fold


def test_fold_accents_and_punctuation():
    assert fold("  José  O'Brien-Núñez ") == "jose o brien nunez"


def test_exact_name_first(book):
    assert SearchIndex(book).names("joseph")[0] == "Joseph Mallord"


def test_query_without_accents(book):
    assert SearchIndex(book).names("nunez") == ["José Núñez"]


def test_typo_tolerance(book):
    assert SearchIndex(book).names("dublni") == ["Siobhán O'Brien"]


def test_anagram_is_not_a_match(book):
    assert SearchIndex(book).names("melon") == []


def test_city_search(book):
    match = SearchIndex(book).search("manchester")[0]
    assert (match.contact.name, match.field, match.score) == ("Ann Lee", "city", 1.0)


def test_no_match(book):
    assert SearchIndex(book).search("zzzz") == []
