import hashlib
import importlib
import unittest

import sketch
from sketch import BloomFilter, HashRing


def hashing():
    return importlib.import_module("sketch.hashing")


class CollidingHasher:
    """Every item gets the same digest: every key lands on one point, every item in one filter slot."""

    def __call__(self, item):
        return bytes(range(32))


class HashingModuleTest(unittest.TestCase):
    def test_encode(self):
        self.assertEqual([hashing().encode(x) for x in (b"ab", "é", 42)], [b"ab", b"\xc3\xa9", b"42"])

    def test_hasher_digest(self):
        self.assertEqual(hashing().Hasher("md5")("user:1"), hashlib.md5(b"user:1").digest())

    def test_default_algorithm(self):
        self.assertEqual(hashing().Hasher().algorithm, "sha256")

    def test_hashers_compare_by_algorithm(self):
        self.assertEqual(hashing().Hasher("sha1"), hashing().Hasher("sha1"))

    def test_unknown_algorithm(self):
        with self.assertRaises(ValueError):
            hashing().Hasher("not-a-hash")

    def test_exported(self):
        self.assertIs(sketch.Hasher, hashing().Hasher)
        self.assertIs(sketch.encode, hashing().encode)

    def test_no_private_copies_left(self):
        bloom_module = importlib.import_module("sketch.bloom")
        ring_module = importlib.import_module("sketch.ring")
        self.assertFalse(hasattr(bloom_module, "_encode") or hasattr(ring_module, "_encode"))


class BloomHasherTest(unittest.TestCase):
    def test_default_positions_unchanged(self):
        self.assertEqual(BloomFilter(1000, 0.01).positions("apple"), [9045, 8798, 8551, 8304, 8057, 7810, 7563])

    def test_default_hasher_attribute(self):
        self.assertEqual(BloomFilter(10).hasher, hashing().Hasher("sha256"))

    def test_custom_hasher_used(self):
        bloom = BloomFilter(1000, 0.01, hasher=CollidingHasher())
        self.assertEqual(bloom.positions("a"), bloom.positions("b"))

    def test_other_algorithm_changes_positions(self):
        md5_bloom = BloomFilter(1000, 0.01, hasher=hashing().Hasher("md5"))
        digest = hashlib.md5(b"apple").digest()
        h1, h2 = int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big") | 1
        self.assertEqual(md5_bloom.positions("apple")[0], h1 % 9586)
        self.assertEqual(md5_bloom.positions("apple")[1], (h1 + h2) % 9586)

    def test_union_requires_same_hasher(self):
        with self.assertRaises(ValueError):
            BloomFilter(100).union(BloomFilter(100, hasher=hashing().Hasher("md5")))

    def test_union_keeps_hasher(self):
        md5 = hashing().Hasher("md5")
        self.assertEqual(BloomFilter(100, hasher=md5).union(BloomFilter(100, hasher=md5)).hasher, md5)

    def test_from_bytes_with_hasher(self):
        md5 = hashing().Hasher("md5")
        bloom = BloomFilter(10, 0.1, hasher=md5)
        bloom.add("x")
        self.assertIn("x", BloomFilter.from_bytes(bloom.to_bytes(), hasher=md5))

    def test_persisted_format_unchanged(self):
        bloom = BloomFilter(10, 0.1)
        bloom.add("x")
        bloom.add("y")
        self.assertEqual(bloom.to_bytes().hex(), "000000300300000002000300421004")


class RingHasherTest(unittest.TestCase):
    def test_default_placement_unchanged(self):
        ring = HashRing(["cache-a", "cache-b", "cache-c"])
        self.assertEqual([ring.node_for(k) for k in ("user:1", "user:2", "user:42")], ["cache-a", "cache-b", "cache-a"])

    def test_default_hasher_attribute(self):
        self.assertEqual(HashRing().hasher, hashing().Hasher("md5"))

    def test_custom_hasher_used(self):
        ring = HashRing(["a", "b"], replicas=3, hasher=CollidingHasher())
        self.assertEqual([ring.node_for(k) for k in ("x", "y", "z")], ["a", "a", "a"])

    def test_sha256_ring_placement(self):
        sha = hashing().Hasher("sha256")
        ring = HashRing(["n1", "n2"], replicas=1, hasher=sha)
        points = {int.from_bytes(hashlib.sha256(f"{n}#0".encode()).digest()[:8], "big"): n for n in ("n1", "n2")}
        key = int.from_bytes(hashlib.sha256(b"k").digest()[:8], "big")
        after = [p for p in sorted(points) if p >= key]
        self.assertEqual(ring.node_for("k"), points[after[0] if after else min(points)])


if __name__ == "__main__":
    unittest.main()
