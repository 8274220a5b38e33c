"""HTML escaping."""

_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}


def escape_html(text):
    """Escape the characters that are special in HTML text and attribute values."""
    return "".join(_HTML.get(ch, ch) for ch in text)
