"""Validate CSV text against a Schema."""
import csv
import io


def validate(text, schema):
    """All problems in `text` as messages, in file order:

        header: missing column 'email'
        header: unexpected column 'nickname'
        row 3: expected 4 fields, got 3
        row 4, column 'age': expected an integer, got 'x'
        row 7, column 'id': duplicate value '12' (first seen in row 2)

    Rows are numbered like lines in the file, the header being row 1. A row with the wrong
    number of fields gets that one error and no cell checks.
    """
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return ["header: file is empty"]
    header = rows[0]
    errors = []
    for column in schema.columns:
        if column.name not in header:
            errors.append(f"header: missing column '{column.name}'")
    if schema.strict:
        for name in header:
            if name not in schema.by_name:
                errors.append(f"header: unexpected column '{name}'")
    positions = {name: index for index, name in enumerate(header) if name in schema.by_name}
    first_seen = {column.name: {} for column in schema.columns if column.unique}
    for number, row in enumerate(rows[1:], start=2):
        if not row:
            continue  # blank line
        if len(row) != len(header):
            errors.append(f"row {number}: expected {len(header)} fields, got {len(row)}")
            continue
        for name, index in positions.items():
            column = schema.by_name[name]
            value = row[index]
            problem = column.check(value)
            if problem is not None:
                errors.append(f"row {number}, column '{name}': {problem}")
                continue
            if column.unique and value != "":
                seen = first_seen[name]
                if value in seen:
                    errors.append(
                        f"row {number}, column '{name}': duplicate value '{value}' (first seen in row {seen[value]})"
                    )
                else:
                    seen[value] = number
    return errors
