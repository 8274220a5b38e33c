"""A Bloom filter with double hashing (Kirsch & Mitzenmacher).

Bit positions are derived from one SHA-256 digest per item: position i is (h1 + i*h2) mod m,
with h1 and h2 the first two big-endian 64-bit words of the digest (h2 forced odd). Filters
are persisted with to_bytes(), so positions must stay stable across releases.
"""
import hashlib
import math


def _encode(item):
    """Bytes to hash for `item`: bytes as they are, str as UTF-8, anything else via str()."""
    if isinstance(item, bytes):
        return item
    if not isinstance(item, str):
        item = str(item)
    return item.encode("utf-8")


def _digest(item):
    return hashlib.sha256(_encode(item)).digest()


class BloomFilter:
    def __init__(self, capacity, error_rate=0.01, *, size=None, hashes=None):
        """A filter for about `capacity` items with false-positive rate `error_rate`.

        `size` (bits) and `hashes` override the computed optimum (used by from_bytes).
        """
        if capacity <= 0 or not 0 < error_rate < 1:
            raise ValueError("capacity must be positive and error_rate between 0 and 1")
        self.capacity = capacity
        self.error_rate = error_rate
        self.size = size or max(8, math.ceil(-capacity * math.log(error_rate) / math.log(2) ** 2))
        self.hashes = hashes or max(1, round(self.size / capacity * math.log(2)))
        self.bits = bytearray((self.size + 7) // 8)
        self.count = 0

    def positions(self, item):
        """The bit positions of `item`."""
        digest = _digest(item)
        h1 = int.from_bytes(digest[:8], "big")
        h2 = int.from_bytes(digest[8:16], "big") | 1
        return [(h1 + i * h2) % self.size for i in range(self.hashes)]

    def add(self, item):
        for position in self.positions(item):
            self.bits[position // 8] |= 1 << (position % 8)
        self.count += 1

    def __contains__(self, item):
        return all(self.bits[p // 8] & (1 << (p % 8)) for p in self.positions(item))

    def union(self, other):
        """A new filter containing the items of both (same size and hash count required)."""
        if (self.size, self.hashes) != (other.size, other.hashes):
            raise ValueError("can only combine Bloom filters of the same size and hash count")
        result = BloomFilter(self.capacity, self.error_rate, size=self.size, hashes=self.hashes)
        result.bits = bytearray(a | b for a, b in zip(self.bits, other.bits))
        result.count = self.count + other.count
        return result

    def estimated_false_positive_rate(self):
        """(1 - e^(-k*n/m))^k for the items added so far."""
        return (1 - math.exp(-self.hashes * self.count / self.size)) ** self.hashes

    def to_bytes(self):
        """size (4 bytes), hashes (1 byte), count (4 bytes), then the bit array."""
        return (
            self.size.to_bytes(4, "big") + bytes([self.hashes]) + self.count.to_bytes(4, "big")
            + bytes(self.bits)
        )

    @classmethod
    def from_bytes(cls, data):
        size = int.from_bytes(data[:4], "big")
        hashes = data[4]
        count = int.from_bytes(data[5:9], "big")
        bits = data[9:]
        if len(bits) != (size + 7) // 8:
            raise ValueError("corrupt Bloom filter: bit array has the wrong length")
        bloom = cls(max(1, count), 0.5, size=size, hashes=hashes)
        bloom.bits = bytearray(bits)
        bloom.count = count
        return bloom
