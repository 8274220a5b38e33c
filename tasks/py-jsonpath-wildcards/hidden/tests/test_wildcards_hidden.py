import unittest

from jpath import JsonPathError, get, query
from tests.fixtures import STORE

AUTHORS = ["Nigel Rees", "Evelyn Waugh", "Herman Melville", "J. R. R. Tolkien"]


class WildcardTest(unittest.TestCase):
    def test_array_wildcard(self):
        self.assertEqual(query(STORE, "$.store.book[*].author"), AUTHORS)

    def test_object_wildcard(self):
        self.assertEqual(query(STORE, "$.store.bicycle.*"), ["red", 19.95])

    def test_wildcard_on_scalar_is_empty(self):
        self.assertEqual(query(STORE, "$.expensive.*"), [])


class NegativeIndexTest(unittest.TestCase):
    def test_last_element(self):
        self.assertEqual(get(STORE, "$.store.book[-1].title"), "The Lord of the Rings")

    def test_out_of_range_negative(self):
        self.assertEqual(query(STORE, "$.store.book[-5]"), [])


class RecursiveDescentTest(unittest.TestCase):
    def test_all_authors(self):
        self.assertEqual(query(STORE, "$..author"), AUTHORS)

    def test_prices_in_document_order(self):
        self.assertEqual(query(STORE, "$..price"), [8.95, 12.99, 8.99, 22.99, 19.95])

    def test_descent_then_index(self):
        self.assertEqual(query(STORE, "$..book[-1].isbn"), ["0-395-19395-8"])

    def test_descent_bracket_selector(self):
        doc = {"a": [1, [2, 3]], "b": {"c": [4]}}
        self.assertEqual(query(doc, "$..[0]"), [1, 2, 4])

    def test_descent_wildcard(self):
        doc = {"a": {"b": 1}, "c": [2]}
        self.assertEqual(query(doc, "$..*"), [{"b": 1}, [2], 1, 2])

    def test_descent_quoted_key_includes_self(self):
        doc = {"id": 1, "child": {"id": 2, "child": {"id": 3}}}
        self.assertEqual(query(doc, "$..['id']"), [1, 2, 3])


class StillStrictTest(unittest.TestCase):
    def test_dangling_descent(self):
        with self.assertRaises(JsonPathError):
            query(STORE, "$..")

    def test_bad_token(self):
        with self.assertRaises(JsonPathError):
            query(STORE, "$.store.[")

    def test_plain_paths_unchanged(self):
        self.assertEqual(query(STORE, "$.store.book[1].price"), [12.99])


if __name__ == "__main__":
    unittest.main()
