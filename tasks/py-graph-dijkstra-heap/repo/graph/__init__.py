"""Weighted graphs, a binary heap and shortest-path routing."""
from .graph import Graph
from .heap import MinHeap
from .paths import NoPathError, dijkstra, shortest_path
from .routes import RoutePlanner

__all__ = ["Graph", "MinHeap", "NoPathError", "RoutePlanner", "dijkstra", "shortest_path"]
