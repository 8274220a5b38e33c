import unittest

from cache import LRUCache, memoize


class LRUCacheTest(unittest.TestCase):
    def test_get_and_put(self):
        cache = LRUCache(2)
        cache.put("a", 1)
        self.assertEqual(cache.get("a"), 1)
        self.assertIsNone(cache.get("b"))

    def test_evicts_least_recently_used(self):
        cache = LRUCache(2)
        cache.put("a", 1)
        cache.put("b", 2)
        cache.get("a")
        cache.put("c", 3)
        self.assertNotIn("b", cache)
        self.assertEqual(cache.keys(), ["c", "a"])

    def test_hit_rate(self):
        cache = LRUCache(4)
        cache.put("x", 1)
        cache.get("x")
        cache.get("y")
        self.assertEqual(cache.stats.hit_rate, 0.5)


class MemoizeTest(unittest.TestCase):
    def test_positional_calls_cached(self):
        calls = []

        @memoize(maxsize=8)
        def square(x):
            calls.append(x)
            return x * x

        self.assertEqual([square(3), square(3), square(4)], [9, 9, 16])
        self.assertEqual(calls, [3, 4])
        info = square.cache_info()
        self.assertEqual((info.hits, info.misses, info.currsize), (1, 2, 2))

    def test_exceptions_not_cached(self):
        @memoize()
        def fail(x):
            raise ValueError(x)

        with self.assertRaises(ValueError):
            fail(1)
        self.assertEqual(fail.cache_info().currsize, 0)


if __name__ == "__main__":
    unittest.main()
