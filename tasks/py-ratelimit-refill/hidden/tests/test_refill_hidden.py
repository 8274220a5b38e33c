import unittest

from ratelimit import KeyedLimiter, ManualClock, TokenBucket


class RefillAccountingTest(unittest.TestCase):
    def test_available_is_stable_without_time_passing(self):
        clock = ManualClock()
        bucket = TokenBucket(4, 1, clock)
        bucket.try_acquire(4)
        clock.advance(0.5)
        self.assertEqual(bucket.available(), 0.5)
        self.assertEqual(bucket.available(), 0.5)

    def test_polling_does_not_mint_tokens(self):
        clock = ManualClock()
        bucket = TokenBucket(5, 1, clock)
        bucket.try_acquire(5)
        granted = 0
        for _ in range(8):
            clock.advance(0.25)
            granted += bucket.try_acquire()
        self.assertEqual(granted, 2)

    def test_retry_after_after_rejections(self):
        clock = ManualClock()
        limiter = KeyedLimiter(2, 0.5, clock)
        self.assertTrue(limiter.allow("k", 2))
        clock.advance(1)
        self.assertFalse(limiter.allow("k"))
        self.assertFalse(limiter.allow("k"))
        self.assertEqual(limiter.retry_after("k"), 1.0)

    def test_fresh_bucket_full(self):
        self.assertEqual(TokenBucket(3, 2, ManualClock()).available(), 3)

    def test_refill_after_success(self):
        clock = ManualClock()
        bucket = TokenBucket(2, 2, clock)
        self.assertTrue(bucket.try_acquire(2))
        clock.advance(0.5)
        self.assertTrue(bucket.try_acquire())
        self.assertFalse(bucket.try_acquire())

    def test_forget_idle(self):
        clock = ManualClock()
        limiter = KeyedLimiter(1, 1, clock)
        limiter.allow("a")
        limiter.allow("b")
        clock.advance(5)
        self.assertEqual(limiter.forget_idle(), 2)


if __name__ == "__main__":
    unittest.main()
