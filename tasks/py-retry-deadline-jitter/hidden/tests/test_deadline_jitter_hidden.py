import random
import unittest

from retry import RetryError, RetryPolicy, call_with_retry, retrying


class FakeTime:
    def __init__(self):
        self.now = 100.0
        self.slept = []

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += seconds


def always_fails(counter):
    def fn():
        counter.append(1)
        raise TimeoutError("slow backend")
    return fn


class JitterTest(unittest.TestCase):
    def test_full_jitter(self):
        policy = RetryPolicy(max_attempts=5, base_delay=1.0, multiplier=2.0, jitter="full")
        expected = random.Random(5).uniform(0, 4.0)
        self.assertEqual(policy.delay_for(3, rng=random.Random(5)), expected)

    def test_equal_jitter(self):
        policy = RetryPolicy(max_attempts=5, base_delay=1.0, multiplier=2.0, max_delay=6.0, jitter="equal")
        expected = 3.0 + random.Random(9).uniform(0, 3.0)
        self.assertEqual(policy.delay_for(4, rng=random.Random(9)), expected)

    def test_delays_with_rng(self):
        policy = RetryPolicy(max_attempts=4, base_delay=2.0, jitter="full")
        reference = random.Random(1)
        expected = [reference.uniform(0, 2.0), reference.uniform(0, 4.0), reference.uniform(0, 8.0)]
        self.assertEqual(policy.delays(rng=random.Random(1)), expected)

    def test_invalid_jitter(self):
        with self.assertRaises(ValueError):
            RetryPolicy(jitter="random")

    def test_runner_passes_rng(self):
        fake = FakeTime()
        policy = RetryPolicy(max_attempts=3, base_delay=1.0, jitter="full")
        with self.assertRaises(RetryError):
            call_with_retry(always_fails([]), policy, sleep=fake.sleep, clock=fake.clock, rng=random.Random(3))
        reference = random.Random(3)
        self.assertEqual(fake.slept, [reference.uniform(0, 1.0), reference.uniform(0, 2.0)])

    def test_no_jitter_by_default(self):
        self.assertEqual(RetryPolicy(max_attempts=3, base_delay=1).delays(), [1, 2])


class DeadlineTest(unittest.TestCase):
    def test_stops_before_sleeping_past_deadline(self):
        fake, calls = FakeTime(), []
        policy = RetryPolicy(max_attempts=10, base_delay=1.0, multiplier=2.0)
        with self.assertRaises(RetryError) as ctx:
            call_with_retry(always_fails(calls), policy, sleep=fake.sleep, clock=fake.clock, deadline=5)
        self.assertEqual(fake.slept, [1.0, 2.0])
        self.assertEqual(len(calls), 3)
        self.assertEqual(ctx.exception.attempts, 3)
        self.assertEqual(ctx.exception.reason, "deadline")
        self.assertIsInstance(ctx.exception.last_exception, TimeoutError)

    def test_reason_attempts_when_exhausted(self):
        fake = FakeTime()
        with self.assertRaises(RetryError) as ctx:
            call_with_retry(always_fails([]), RetryPolicy(max_attempts=2, base_delay=1.0),
                            sleep=fake.sleep, clock=fake.clock, deadline=60)
        self.assertEqual(ctx.exception.reason, "attempts")

    def test_deadline_counts_time_spent_in_calls(self):
        fake = FakeTime()

        def slow():
            fake.now += 3
            raise TimeoutError

        with self.assertRaises(RetryError) as ctx:
            call_with_retry(slow, RetryPolicy(max_attempts=10, base_delay=1.0), sleep=fake.sleep,
                            clock=fake.clock, deadline=8)
        self.assertEqual(fake.slept, [1.0])
        self.assertEqual(ctx.exception.attempts, 2)

    def test_delay_exactly_reaching_deadline_is_allowed(self):
        fake, calls = FakeTime(), []
        with self.assertRaises(RetryError):
            call_with_retry(always_fails(calls), RetryPolicy(max_attempts=10, base_delay=1.0),
                            sleep=fake.sleep, clock=fake.clock, deadline=3)
        self.assertEqual(fake.slept, [1.0, 2.0])

    def test_on_retry_callback(self):
        fake, seen = FakeTime(), []
        state = {"n": 0}

        def flaky():
            state["n"] += 1
            if state["n"] < 3:
                raise ConnectionError(state["n"])
            return "done"

        result = call_with_retry(flaky, RetryPolicy(max_attempts=5, base_delay=0.5), sleep=fake.sleep,
                                 clock=fake.clock, on_retry=lambda a, e, d: seen.append((a, str(e), d)))
        self.assertEqual(result, "done")
        self.assertEqual(seen, [(1, "1", 0.5), (2, "2", 1.0)])

    def test_decorator_forwards_deadline(self):
        fake = FakeTime()
        wrapped = retrying(RetryPolicy(max_attempts=10, base_delay=4.0), sleep=fake.sleep, clock=fake.clock,
                           deadline=5)(always_fails([]))
        with self.assertRaises(RetryError):
            wrapped()
        self.assertEqual(fake.slept, [4.0])

    def test_without_deadline_unchanged(self):
        slept = []
        with self.assertRaises(RetryError) as ctx:
            call_with_retry(always_fails([]), RetryPolicy(max_attempts=3, base_delay=1.0), sleep=slept.append)
        self.assertEqual(slept, [1.0, 2.0])
        self.assertEqual(ctx.exception.attempts, 3)


if __name__ == "__main__":
    unittest.main()
