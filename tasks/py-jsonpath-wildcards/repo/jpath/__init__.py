"""A small JSONPath subset for querying decoded JSON documents."""
from .errors import JsonPathError
from .query import JsonPath, compile_path, get, query

__all__ = ["JsonPath", "JsonPathError", "compile_path", "get", "query"]
