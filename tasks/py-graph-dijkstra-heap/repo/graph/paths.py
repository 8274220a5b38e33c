"""Dijkstra's algorithm on :class:`graph.Graph`."""
from .heap import MinHeap


class NoPathError(LookupError):
    """The target cannot be reached from the source."""


def dijkstra(graph, source):
    """Distances from ``source`` and the predecessor map of the shortest-path tree."""
    if source not in graph:
        raise KeyError(source)
    dist = {source: 0}
    prev = {}
    done = set()
    heap = MinHeap()
    heap.push(0, source)
    while heap:
        d, node = heap.pop()
        if node in done:
            continue  # stale entry: a shorter distance was already settled
        done.add(node)
        for neighbor, weight in graph.neighbors(node):
            candidate = d + weight
            if neighbor not in dist or candidate < dist[neighbor]:
                dist[neighbor] = candidate
                prev[neighbor] = node
                heap.push(candidate, neighbor)
    return dist, prev


def shortest_path(graph, source, target):
    """``(cost, [source, ..., target])`` of a cheapest path; raises NoPathError if none exists."""
    dist, prev = dijkstra(graph, source)
    if target not in dist:
        raise NoPathError(f"no path from {source!r} to {target!r}")
    path = [target]
    while path[-1] != source:
        path.append(prev[path[-1]])
    path.reverse()
    return dist[target], path
