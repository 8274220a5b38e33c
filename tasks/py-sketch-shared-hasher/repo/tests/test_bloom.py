import unittest

from sketch import BloomFilter


class BloomFilterTest(unittest.TestCase):
    def test_sizing(self):
        bloom = BloomFilter(1000, 0.01)
        self.assertEqual((bloom.size, bloom.hashes), (9586, 7))

    def test_positions_are_stable(self):
        self.assertEqual(BloomFilter(1000, 0.01).positions("apple"), [9045, 8798, 8551, 8304, 8057, 7810, 7563])

    def test_bytes_str_and_numbers(self):
        bloom = BloomFilter(1000, 0.01)
        self.assertEqual(bloom.positions(b"apple"), bloom.positions("apple"))
        self.assertEqual(bloom.positions(42), bloom.positions("42"))

    def test_membership(self):
        bloom = BloomFilter(100, 0.01)
        for word in ("alpha", "beta", "gamma"):
            bloom.add(word)
        self.assertIn("beta", bloom)
        self.assertNotIn("delta", bloom)

    def test_persisted_format(self):
        bloom = BloomFilter(10, 0.1)
        bloom.add("x")
        bloom.add("y")
        self.assertEqual(bloom.to_bytes().hex(), "000000300300000002000300421004")
        self.assertIn("y", BloomFilter.from_bytes(bloom.to_bytes()))

    def test_union(self):
        a, b = BloomFilter(100, 0.01), BloomFilter(100, 0.01)
        a.add("left")
        b.add("right")
        both = a.union(b)
        self.assertTrue("left" in both and "right" in both)
        with self.assertRaises(ValueError):
            a.union(BloomFilter(50, 0.01))

    def test_false_positive_estimate_grows(self):
        bloom = BloomFilter(100, 0.01)
        before = bloom.estimated_false_positive_rate()
        for i in range(100):
            bloom.add(i)
        self.assertLess(before, bloom.estimated_false_positive_rate())


if __name__ == "__main__":
    unittest.main()
