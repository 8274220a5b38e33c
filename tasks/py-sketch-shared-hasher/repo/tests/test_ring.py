import unittest
from collections import Counter

from sketch import HashRing

NODES = ["cache-a", "cache-b", "cache-c"]


class HashRingTest(unittest.TestCase):
    def test_placement_is_stable(self):
        ring = HashRing(NODES)
        self.assertEqual(
            [ring.node_for(k) for k in ("user:1", "user:2", "user:3", "user:42", "session:9")],
            ["cache-a", "cache-b", "cache-a", "cache-a", "cache-a"],
        )

    def test_replication(self):
        self.assertEqual(HashRing(NODES).nodes_for("user:42", 2), ["cache-a", "cache-b"])

    def test_removing_a_node_only_moves_its_keys(self):
        ring = HashRing(NODES)
        keys = [f"k{i}" for i in range(500)]
        before = {k: ring.node_for(k) for k in keys}
        ring.remove_node("cache-c")
        moved = [k for k in keys if ring.node_for(k) != before[k]]
        self.assertTrue(all(before[k] == "cache-c" for k in moved))

    def test_roughly_balanced(self):
        ring = HashRing(NODES)
        counts = Counter(ring.node_for(f"key-{i}") for i in range(3000))
        self.assertTrue(all(600 < n < 1400 for n in counts.values()), counts)

    def test_errors(self):
        with self.assertRaises(LookupError):
            HashRing().node_for("x")
        with self.assertRaises(ValueError):
            HashRing(["a", "a"])
        with self.assertRaises(ValueError):
            HashRing(NODES).nodes_for("x", 4)


if __name__ == "__main__":
    unittest.main()
