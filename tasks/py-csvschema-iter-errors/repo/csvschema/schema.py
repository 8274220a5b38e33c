"""Schema objects and loading them from plain dicts (e.g. parsed JSON)."""
import re
from dataclasses import dataclass, field

from .types import PARSERS


class SchemaError(ValueError):
    """The schema itself is invalid."""


@dataclass(frozen=True)
class Column:
    name: str
    type: str = "str"
    required: bool = True  # an empty cell is an error
    unique: bool = False
    pattern: str | None = None  # full match, applied to the raw text
    minimum: float | None = None  # for int/float/date columns, compared to the parsed value
    maximum: float | None = None
    choices: tuple = ()

    def check(self, text):
        """An error message for the cell `text`, or None when it is valid."""
        if text == "":
            return "value is required" if self.required else None
        try:
            value = PARSERS[self.type](text)
        except ValueError as exc:
            return str(exc)
        if self.pattern is not None and not re.fullmatch(self.pattern, text):
            return f"{text!r} does not match {self.pattern!r}"
        if self.choices and text not in self.choices:
            return f"{text!r} is not one of {', '.join(self.choices)}"
        if self.minimum is not None and value < self.minimum:
            return f"{value} is below the minimum {self.minimum}"
        if self.maximum is not None and value > self.maximum:
            return f"{value} is above the maximum {self.maximum}"
        return None


@dataclass(frozen=True)
class Schema:
    columns: tuple
    strict: bool = True  # columns not in the schema are errors
    by_name: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        self.by_name.update({c.name: c for c in self.columns})


_COLUMN_KEYS = {"name", "type", "required", "unique", "pattern", "minimum", "maximum", "choices"}


def load_schema(data):
    """Schema from {"columns": [...], "strict": bool}; SchemaError explains what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("columns"), list) or not data["columns"]:
        raise SchemaError("schema needs a non-empty 'columns' list")
    columns, seen = [], set()
    for index, spec in enumerate(data["columns"]):
        if not isinstance(spec, dict) or "name" not in spec:
            raise SchemaError(f"column #{index} needs a 'name'")
        unknown = set(spec) - _COLUMN_KEYS
        if unknown:
            raise SchemaError(f"column {spec['name']!r}: unknown keys {sorted(unknown)}")
        if spec["name"] in seen:
            raise SchemaError(f"column {spec['name']!r} is declared twice")
        seen.add(spec["name"])
        if spec.get("type", "str") not in PARSERS:
            raise SchemaError(f"column {spec['name']!r}: unknown type {spec['type']!r}")
        spec = dict(spec)
        spec["choices"] = tuple(spec.get("choices", ()))
        columns.append(Column(**spec))
    return Schema(tuple(columns), bool(data.get("strict", True)))
