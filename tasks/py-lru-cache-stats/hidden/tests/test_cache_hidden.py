import unittest

from cache import LRUCache, memoize


class EvictionStatsTest(unittest.TestCase):
    def test_evictions_counted(self):
        cache = LRUCache(2)
        for key in "abcde":
            cache.put(key, key.upper())
        self.assertEqual(cache.info().evictions, 3)
        self.assertEqual(cache.keys(), ["e", "d"])

    def test_update_is_not_an_eviction(self):
        cache = LRUCache(2)
        cache.put("a", 1)
        cache.put("b", 2)
        cache.put("a", 3)
        self.assertEqual(cache.info().evictions, 0)
        self.assertEqual(cache.get("a"), 3)

    def test_memoize_reports_evictions(self):
        @memoize(maxsize=1)
        def double(x):
            return 2 * x

        double(1)
        double(2)
        double(1)
        self.assertEqual(double.cache_info(), (0, 3, 2, 1, 1))


class KeywordArgumentsTest(unittest.TestCase):
    def test_keyword_values_distinguish_calls(self):
        @memoize()
        def scale(x, factor=1):
            return x * factor

        self.assertEqual(scale(5, factor=2), 10)
        self.assertEqual(scale(5, factor=3), 15)
        self.assertEqual(scale(5), 5)

    def test_keyword_order_does_not_matter(self):
        calls = []

        @memoize()
        def area(width=1, height=1):
            calls.append((width, height))
            return width * height

        self.assertEqual(area(width=2, height=3), 6)
        self.assertEqual(area(height=3, width=2), 6)
        self.assertEqual(len(calls), 1)

    def test_cache_clear_resets(self):
        @memoize()
        def ident(x):
            return x

        ident(1)
        ident(1)
        ident.cache_clear()
        self.assertEqual(ident.cache_info(), (0, 0, 0, 128, 0))


if __name__ == "__main__":
    unittest.main()
