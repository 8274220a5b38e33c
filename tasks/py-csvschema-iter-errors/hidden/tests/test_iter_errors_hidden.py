import io
import types
import unittest

import csvschema
from csvschema import error_counts, format_report, load_schema, validate

SCHEMA = load_schema({"columns": [
    {"name": "id", "type": "int", "unique": True},
    {"name": "name"},
]})


def lines_then_explode(*lines):
    """Yield `lines`, then fail if anyone reads further."""
    yield from lines
    raise AssertionError("read past the row that had the error")


class IterErrorsTest(unittest.TestCase):
    def test_is_a_generator(self):
        self.assertIsInstance(csvschema.iter_errors("id,name\n", SCHEMA), types.GeneratorType)

    def test_yields_error_objects(self):
        [error] = csvschema.iter_errors("id,name\nx,a\n", SCHEMA)
        self.assertEqual((error.row, error.column, error.message), (2, "id", "expected an integer, got 'x'"))

    def test_str_matches_validate(self):
        text = "id,name,extra\n1,a,b\n1,,c\n2\n"
        self.assertEqual([str(e) for e in csvschema.iter_errors(text, SCHEMA)], validate(text, SCHEMA))

    def test_header_error_fields(self):
        [error] = csvschema.iter_errors("id\n", SCHEMA)
        self.assertEqual((error.row, error.column, str(error)), (None, None, "header: missing column 'name'"))

    def test_row_shape_error_fields(self):
        [error] = csvschema.iter_errors("id,name\n1\n", SCHEMA)
        self.assertEqual((error.row, error.column, str(error)), (2, None, "row 2: expected 2 fields, got 1"))

    def test_lazy_first_error(self):
        errors = csvschema.iter_errors(lines_then_explode("id,name\n", "1,a\n", "x,b\n"), SCHEMA)
        self.assertEqual(str(next(errors)), "row 3, column 'id': expected an integer, got 'x'")

    def test_lazy_duplicate(self):
        errors = csvschema.iter_errors(lines_then_explode("id,name\n", "7,a\n", "7,b\n"), SCHEMA)
        self.assertEqual(next(errors).message, "duplicate value '7' (first seen in row 2)")

    def test_file_object_source(self):
        self.assertEqual(validate(io.StringIO("id,name\n1,\n"), SCHEMA), ["row 2, column 'name': value is required"])

    def test_empty_source(self):
        self.assertEqual([str(e) for e in csvschema.iter_errors([], SCHEMA)], ["header: file is empty"])

    def test_exported(self):
        self.assertIn("iter_errors", csvschema.__all__)
        self.assertIn("ValidationError", csvschema.__all__)

    def test_validation_error_value(self):
        self.assertEqual(str(csvschema.ValidationError(4, "id", "bad")), "row 4, column 'id': bad")


class ReportStillWorksTest(unittest.TestCase):
    def test_counts_with_quote_in_column_name(self):
        schema = load_schema({"columns": [{"name": "it's", "type": "int"}]})
        self.assertEqual(dict(error_counts("it's\nx\n", schema)), {"it's": 1})

    def test_counts_from_file_object(self):
        self.assertEqual(dict(error_counts(io.StringIO("id,name\nx,\n"), SCHEMA)), {"id": 1, "name": 1})

    def test_report_unchanged(self):
        self.assertEqual(format_report("id,name\n1,a\n1,b\n", SCHEMA).splitlines(), [
            "1 problem(s)",
            "  id: 1",
            "- row 3, column 'id': duplicate value '1' (first seen in row 2)",
        ])


if __name__ == "__main__":
    unittest.main()
