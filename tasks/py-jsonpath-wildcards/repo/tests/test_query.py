import unittest

from jpath import JsonPathError, compile_path, get, query
from tests.fixtures import STORE


class QueryTest(unittest.TestCase):
    def test_member_chain(self):
        self.assertEqual(query(STORE, "$.store.bicycle.color"), ["red"])

    def test_index_and_quoted_key(self):
        self.assertEqual(query(STORE, "$.store.book[2]['title']"), ["Moby Dick"])

    def test_missing_gives_no_match(self):
        self.assertEqual(query(STORE, "$.store.book[10].title"), [])
        self.assertEqual(get(STORE, "$.store.book[0].isbn", "n/a"), "n/a")

    def test_root(self):
        self.assertIs(query(STORE, "$")[0], STORE)

    def test_compiled_reuse(self):
        path = compile_path("$.expensive")
        self.assertEqual(path.first(STORE), 10)
        self.assertEqual(path.find({"expensive": 3}), [3])


class ErrorTest(unittest.TestCase):
    def test_must_start_with_root(self):
        with self.assertRaises(JsonPathError):
            query(STORE, "store.book")

    def test_unterminated_bracket(self):
        with self.assertRaises(JsonPathError):
            query(STORE, "$.store.book[0")


if __name__ == "__main__":
    unittest.main()
