import unittest

from ratelimit import KeyedLimiter, ManualClock, TokenBucket


class TokenBucketTest(unittest.TestCase):
    def test_burst_up_to_capacity(self):
        bucket = TokenBucket(3, 1, ManualClock())
        self.assertEqual([bucket.try_acquire() for _ in range(4)], [True, True, True, False])

    def test_refills_over_time(self):
        clock = ManualClock()
        bucket = TokenBucket(2, 1, clock)
        self.assertTrue(bucket.try_acquire(2))
        clock.advance(1)
        self.assertTrue(bucket.try_acquire())

    def test_never_exceeds_capacity(self):
        clock = ManualClock()
        bucket = TokenBucket(5, 10, clock)
        clock.advance(60)
        self.assertEqual(bucket.available(), 5)

    def test_invalid_arguments(self):
        with self.assertRaises(ValueError):
            TokenBucket(0, 1)
        with self.assertRaises(ValueError):
            TokenBucket(1, 1, ManualClock()).try_acquire(2)


class KeyedLimiterTest(unittest.TestCase):
    def test_keys_are_independent(self):
        limiter = KeyedLimiter(1, 1, ManualClock())
        self.assertTrue(limiter.allow("alice"))
        self.assertFalse(limiter.allow("alice"))
        self.assertTrue(limiter.allow("bob"))


if __name__ == "__main__":
    unittest.main()
