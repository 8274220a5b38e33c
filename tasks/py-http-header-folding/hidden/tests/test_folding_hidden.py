import unittest

from httphead import parse_headers


class FoldingTest(unittest.TestCase):
    def test_fold_becomes_single_space(self):
        self.assertEqual(parse_headers("X-Note: first part\r\n  second part\r\n").get("x-note"), "first part second part")

    def test_tab_fold(self):
        self.assertEqual(parse_headers("Subject: Quarterly\n\treport\n").get("subject"), "Quarterly report")

    def test_several_folds(self):
        self.assertEqual(parse_headers("X-List: a,\n b,\n c\n").get("x-list"), "a, b, c")

    def test_fold_then_next_field(self):
        headers = parse_headers(b"Received: from a\r\n by b\r\nHost: example.com\r\n\r\n")
        self.assertEqual(headers.get("received"), "from a by b")

    def test_unfolded_fields_unchanged(self):
        headers = parse_headers("Host: example.com\nAccept: */*\n")
        self.assertEqual(headers.get("host"), "example.com")


if __name__ == "__main__":
    unittest.main()
