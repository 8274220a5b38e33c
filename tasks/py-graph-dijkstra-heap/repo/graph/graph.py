"""Adjacency-list graph with non-negative edge weights."""


class Graph:
    """Directed or undirected weighted graph; nodes are any hashable values."""

    def __init__(self, directed=False):
        self.directed = directed
        self._adj = {}

    @classmethod
    def from_edges(cls, edges, directed=False):
        """Build a graph from ``(u, v, weight)`` triples."""
        graph = cls(directed)
        for u, v, weight in edges:
            graph.add_edge(u, v, weight)
        return graph

    def add_node(self, node):
        self._adj.setdefault(node, {})

    def add_edge(self, u, v, weight=1):
        """Add (or replace) the edge u->v (and v->u when undirected)."""
        if weight < 0:
            raise ValueError(f"negative weight on edge {u!r}-{v!r}")
        self.add_node(u)
        self.add_node(v)
        self._adj[u][v] = weight
        if not self.directed:
            self._adj[v][u] = weight

    def remove_edge(self, u, v):
        del self._adj[u][v]
        if not self.directed:
            del self._adj[v][u]

    def neighbors(self, node):
        """``(neighbor, weight)`` pairs of a node, in insertion order."""
        return list(self._adj.get(node, {}).items())

    def __contains__(self, node):
        return node in self._adj

    @property
    def nodes(self):
        return list(self._adj)
