"""Example application: a tiny product catalogue served by `web.App`."""
from .app import create_app

__all__ = ["create_app"]
