import unittest

from csvschema import SchemaError, load_schema, validate

SCHEMA = load_schema({"columns": [
    {"name": "id", "type": "int", "unique": True, "minimum": 1},
    {"name": "email", "pattern": "[^@ ]+@[^@ ]+"},
    {"name": "joined", "type": "date"},
    {"name": "plan", "choices": ["free", "pro"], "required": False},
]})

GOOD = "id,email,joined,plan\n1,a@x.org,2024-01-02,free\n2,b@x.org,2024-02-03,\n"


class ValidateTest(unittest.TestCase):
    def test_valid_file(self):
        self.assertEqual(validate(GOOD, SCHEMA), [])

    def test_cell_errors_in_order(self):
        text = "id,email,joined,plan\n0,nope,2024-13-01,gold\nx,c@x.org,2024-01-01,pro\n"
        self.assertEqual(validate(text, SCHEMA), [
            "row 2, column 'id': 0 is below the minimum 1",
            "row 2, column 'email': 'nope' does not match '[^@ ]+@[^@ ]+'",
            "row 2, column 'joined': expected a date (YYYY-MM-DD), got '2024-13-01'",
            "row 2, column 'plan': 'gold' is not one of free, pro",
            "row 3, column 'id': expected an integer, got 'x'",
        ])

    def test_header_errors(self):
        self.assertEqual(validate("id,email,nick,plan\n", SCHEMA), [
            "header: missing column 'joined'",
            "header: unexpected column 'nick'",
        ])

    def test_duplicates(self):
        text = GOOD + "1,c@x.org,2024-03-04,pro\n"
        self.assertEqual(validate(text, SCHEMA), ["row 4, column 'id': duplicate value '1' (first seen in row 2)"])

    def test_wrong_field_count_and_blank_lines(self):
        text = "id,email,joined,plan\n\n1,a@x.org\n"
        self.assertEqual(validate(text, SCHEMA), ["row 3: expected 4 fields, got 2"])

    def test_empty_file(self):
        self.assertEqual(validate("", SCHEMA), ["header: file is empty"])

    def test_required(self):
        self.assertEqual(validate("id,email,joined,plan\n3,,2024-01-01,\n", SCHEMA),
                         ["row 2, column 'email': value is required"])


class SchemaTest(unittest.TestCase):
    def test_unknown_type(self):
        with self.assertRaises(SchemaError):
            load_schema({"columns": [{"name": "a", "type": "uuid"}]})

    def test_duplicate_column(self):
        with self.assertRaises(SchemaError):
            load_schema({"columns": [{"name": "a"}, {"name": "a"}]})

    def test_lenient_schema(self):
        schema = load_schema({"columns": [{"name": "a"}], "strict": False})
        self.assertEqual(validate("a,b\nx,y\n", schema), [])


if __name__ == "__main__":
    unittest.main()
