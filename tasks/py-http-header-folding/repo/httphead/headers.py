"""A case-insensitive multi-dict of header fields that keeps the original order and spelling."""

# Fields whose repeated values must never be folded into one comma-separated value
# (RFC 6265 section 3: Set-Cookie values may themselves contain commas).
NEVER_COMBINE = frozenset({"set-cookie"})


class Headers:
    """Ordered header fields. Names compare case-insensitively; values are kept verbatim."""

    def __init__(self, fields=()):
        self._fields = []  # list of (name as received, value)
        for name, value in fields:
            self.add(name, value)

    def add(self, name, value):
        """Append a field; an existing field with the same name is kept."""
        self._fields.append((name, value))

    def get_all(self, name):
        """Every value of `name`, in the order received."""
        key = name.lower()
        return [value for field, value in self._fields if field.lower() == key]

    def get(self, name, default=None):
        """The combined value of `name` (repeated fields joined with ", "), or `default`.

        Set-Cookie is never combined: the first value is returned; use get_all() for the rest.
        """
        values = self.get_all(name)
        if not values:
            return default
        if name.lower() in NEVER_COMBINE:
            return values[0]
        return ", ".join(values)

    def __contains__(self, name):
        key = name.lower()
        return any(field.lower() == key for field, _ in self._fields)

    def __len__(self):
        return len(self._fields)

    def __iter__(self):
        return iter(self._fields)

    def names(self):
        """Distinct field names, lower-cased, in the order first seen."""
        seen = []
        for field, _ in self._fields:
            if field.lower() not in seen:
                seen.append(field.lower())
        return seen

    def content_length(self):
        """The Content-Length as an int, or None; conflicting repeated values are an error."""
        values = {v.strip() for v in self.get_all("content-length")}
        if not values:
            return None
        if len(values) > 1:
            raise ValueError(f"conflicting Content-Length values: {sorted(values)}")
        (value,) = values
        if not value.isdigit():
            raise ValueError(f"invalid Content-Length: {value!r}")
        return int(value)

    def __repr__(self):
        return f"Headers({self._fields!r})"
