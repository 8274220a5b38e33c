from addressbook import AddressBook, Contact
from search import SearchIndex, fold
from search.fuzzy import text_score, token_score


def test_fold_keeps_plain_text():
    assert fold("Ann LEE") == "ann lee"


def test_fold_strips_accents():
    assert fold("Siobhán Ñandú") == "siobhan nandu"


def test_anagram_token_score_is_low():
    assert token_score("melon", "lemon") == 0.6


def test_prefix_token_score():
    assert token_score("jos", "joseph") == 1.0


def test_text_score_word_order():
    assert text_score("nunez jose", "José Núñez") == 1.0


def test_best_match_first(book):
    assert SearchIndex(book, cutoff=0.5).names("jose nunez")[:2] == ["José Núñez", "Joseph Mallord"]


def test_ties_in_name_order():
    book = AddressBook([Contact("Zoe Smith", "zoe@x.example"), Contact("Adam Smith", "adam@x.example")])
    assert SearchIndex(book).names("smith") == ["Adam Smith", "Zoe Smith"]


def test_limit_keeps_the_best(book):
    assert SearchIndex(book, cutoff=0.0).names("lemon", limit=1) == ["Lemon Fruit Co"]


def test_accented_query_matches_plain_name():
    book = AddressBook([Contact("Ann Lee", "ann@example.com")])
    assert SearchIndex(book).names("Ánn") == ["Ann Lee"]
