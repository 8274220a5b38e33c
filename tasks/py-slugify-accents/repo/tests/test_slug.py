import unittest

from slugs import UniqueSlugger, slugify, strip_accents


class SlugifyTest(unittest.TestCase):
    def test_basic(self):
        self.assertEqual(slugify("Hello, World!"), "hello-world")

    def test_accents(self):
        self.assertEqual(slugify("Café au lait"), "cafe-au-lait")

    def test_transliteration(self):
        self.assertEqual(slugify("Straße & Smørrebrød"), "strasse-smorrebrod")

    def test_max_length_cuts_at_word(self):
        self.assertEqual(slugify("The quick brown fox", max_length=12), "the-quick")

    def test_separator(self):
        self.assertEqual(slugify("Crème brûlée", separator="_"), "creme_brulee")


class StripAccentsTest(unittest.TestCase):
    def test_strip(self):
        self.assertEqual(strip_accents("Ångström naïve"), "Angstrom naive")


class UniqueTest(unittest.TestCase):
    def test_numbering(self):
        slugger = UniqueSlugger(taken={"news"})
        self.assertEqual([slugger.slug_for("News"), slugger.slug_for("news!")], ["news-2", "news-3"])

    def test_accented_titles_collide(self):
        slugger = UniqueSlugger()
        self.assertEqual([slugger.slug_for("Résumé"), slugger.slug_for("Resume")], ["resume", "resume-2"])

    def test_empty_title(self):
        self.assertEqual(UniqueSlugger().slug_for("!!!"), "item")


if __name__ == "__main__":
    unittest.main()
