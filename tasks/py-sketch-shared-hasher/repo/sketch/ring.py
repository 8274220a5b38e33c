"""Consistent hashing with virtual nodes.

Each node is placed on the ring `replicas` times, at the MD5 of "node#i" (first 8 bytes,
big-endian). A key goes to the first virtual node at or after the key's own hash, wrapping
around. Cache clients in other languages use the same placement, so it must not change.
"""
import bisect
import hashlib


def _encode(key):
    """Bytes to hash for `key`: bytes as they are, str as UTF-8, anything else via str()."""
    if isinstance(key, bytes):
        return key
    if not isinstance(key, str):
        key = str(key)
    return key.encode("utf-8")


def _position(key):
    return int.from_bytes(hashlib.md5(_encode(key)).digest()[:8], "big")


class HashRing:
    def __init__(self, nodes=(), replicas=100):
        if replicas < 1:
            raise ValueError("replicas must be at least 1")
        self.replicas = replicas
        self._points = []  # sorted positions
        self._owners = {}  # position -> node
        self.nodes = set()
        for node in nodes:
            self.add_node(node)

    def add_node(self, node):
        if node in self.nodes:
            raise ValueError(f"node {node!r} is already on the ring")
        self.nodes.add(node)
        for i in range(self.replicas):
            point = _position(f"{node}#{i}")
            if point in self._owners:  # astronomically unlikely; keep the first owner
                continue
            self._owners[point] = node
            bisect.insort(self._points, point)

    def remove_node(self, node):
        if node not in self.nodes:
            raise KeyError(node)
        self.nodes.remove(node)
        for point in [p for p, owner in self._owners.items() if owner == node]:
            del self._owners[point]
            self._points.remove(point)

    def node_for(self, key):
        """The node responsible for `key`."""
        if not self._points:
            raise LookupError("the ring has no nodes")
        index = bisect.bisect_left(self._points, _position(key)) % len(self._points)
        return self._owners[self._points[index]]

    def nodes_for(self, key, count):
        """`count` distinct nodes for replication: the owner, then the next distinct nodes clockwise."""
        if count > len(self.nodes):
            raise ValueError(f"only {len(self.nodes)} nodes on the ring")
        start = bisect.bisect_left(self._points, _position(key))
        found = []
        for offset in range(len(self._points)):
            node = self._owners[self._points[(start + offset) % len(self._points)]]
            if node not in found:
                found.append(node)
                if len(found) == count:
                    break
        return found
