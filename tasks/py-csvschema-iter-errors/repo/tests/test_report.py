import unittest

from csvschema import error_counts, format_report, load_schema

SCHEMA = load_schema({"columns": [{"name": "id", "type": "int"}, {"name": "name"}]})
TEXT = "id,name,extra\n1,a,x\nx,,y\n2,b\ny,c,z\n"


class ReportTest(unittest.TestCase):
    def test_counts(self):
        self.assertEqual(dict(error_counts(TEXT, SCHEMA)), {"(file)": 2, "id": 2, "name": 1})

    def test_report(self):
        self.assertEqual(format_report(TEXT, SCHEMA, limit=2).splitlines(), [
            "5 problem(s)",
            "  (file): 2",
            "  id: 2",
            "  name: 1",
            "- header: unexpected column 'extra'",
            "- row 3, column 'id': expected an integer, got 'x'",
            "... and 3 more",
        ])

    def test_ok(self):
        self.assertEqual(format_report("id,name\n1,a\n", SCHEMA), "OK: no problems found")


if __name__ == "__main__":
    unittest.main()
