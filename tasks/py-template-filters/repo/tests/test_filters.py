import unittest

from minitpl import render
from minitpl.filters import collections, numbers, text


class FilterFunctionTest(unittest.TestCase):
    def test_text(self):
        self.assertEqual(text.truncate("hello world", 8), "hello...")
        self.assertEqual(text.default(None, "n/a"), "n/a")
        self.assertEqual(text.escape('<a href="x">'), "&lt;a href=&quot;x&quot;&gt;")

    def test_numbers(self):
        self.assertEqual(numbers.round_(2.675, 1), 2.7)
        self.assertEqual(numbers.round_(2.5), 2)
        self.assertEqual(numbers.percent(0.256, 1), "25.6%")

    def test_collections(self):
        self.assertEqual(collections.join([1, 2], "-"), "1-2")
        self.assertEqual(collections.length(None), 0)


class FiltersInTemplatesTest(unittest.TestCase):
    def test_chained(self):
        self.assertEqual(render("{{ name|trim|upper }}", {"name": "  ann "}), "ANN")

    def test_in_loop(self):
        out = render("{% for t in tags|sort %}{{ t|title }};{% endfor %}", {"tags": ["b", "a"]})
        self.assertEqual(out, "A;B;")

    def test_default_separator(self):
        self.assertEqual(render("{{ xs|join }}", {"xs": [1, 2, 3]}), "1, 2, 3")


if __name__ == "__main__":
    unittest.main()
