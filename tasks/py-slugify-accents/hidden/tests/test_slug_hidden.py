import unittest

from slugs import slugify, strip_accents


class AccentHiddenTest(unittest.TestCase):
    def test_polish_and_czech(self):
        self.assertEqual(slugify("Łódź i Žluťoučký kůň"), "lodz-i-zlutoucky-kun")

    def test_precomposed_and_decomposed_agree(self):
        self.assertEqual(strip_accents("e\u0301t\u00e9"), "ete")

    def test_upper_case_accents(self):
        self.assertEqual(slugify("ÉCOLE ÉTÉ"), "ecole-ete")

    def test_non_latin_dropped(self):
        self.assertEqual(slugify("Привет world"), "world")

    def test_already_decomposed(self):
        self.assertEqual(strip_accents("Cafe\u0301"), "Cafe")


if __name__ == "__main__":
    unittest.main()
