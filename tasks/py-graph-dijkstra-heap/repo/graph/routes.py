"""Multi-stop route planning on top of shortest paths."""
from .paths import shortest_path


class RoutePlanner:
    """Plans routes through a road network, optionally avoiding closed roads."""

    def __init__(self, graph):
        self.graph = graph
        self._closed = {}

    def close_road(self, u, v):
        """Temporarily remove the road between u and v."""
        weight = dict(self.graph.neighbors(u))[v]
        self.graph.remove_edge(u, v)
        self._closed[(u, v)] = weight

    def reopen_all(self):
        for (u, v), weight in self._closed.items():
            self.graph.add_edge(u, v, weight)
        self._closed.clear()

    def plan(self, stops):
        """Visit ``stops`` in order; returns ``(total_cost, full_path)``."""
        if len(stops) < 2:
            raise ValueError("a route needs at least two stops")
        total, full = 0, [stops[0]]
        for start, end in zip(stops, stops[1:]):
            cost, leg = shortest_path(self.graph, start, end)
            total += cost
            full.extend(leg[1:])
        return total, full
