import unittest

from retry import RetryError, RetryPolicy, call_with_retry, retrying


class Flaky:
    def __init__(self, failures, exc=ConnectionError):
        self.failures, self.exc, self.calls = failures, exc, 0

    def __call__(self):
        self.calls += 1
        if self.calls <= self.failures:
            raise self.exc(f"failure {self.calls}")
        return "ok"


class PolicyTest(unittest.TestCase):
    def test_exponential_delays(self):
        self.assertEqual(RetryPolicy(max_attempts=4, base_delay=1, multiplier=3).delays(), [1, 3, 9])

    def test_max_delay_caps(self):
        self.assertEqual(RetryPolicy(max_attempts=5, base_delay=1, max_delay=3).delays(), [1, 2, 3, 3])

    def test_invalid(self):
        with self.assertRaises(ValueError):
            RetryPolicy(max_attempts=0)


class RunnerTest(unittest.TestCase):
    def test_succeeds_after_failures(self):
        slept = []
        flaky = Flaky(2)
        self.assertEqual(call_with_retry(flaky, RetryPolicy(max_attempts=3, base_delay=1), sleep=slept.append), "ok")
        self.assertEqual(slept, [1, 2])

    def test_gives_up(self):
        with self.assertRaises(RetryError) as ctx:
            call_with_retry(Flaky(5), RetryPolicy(max_attempts=2), sleep=lambda s: None)
        self.assertEqual(ctx.exception.attempts, 2)
        self.assertIsInstance(ctx.exception.last_exception, ConnectionError)

    def test_other_exceptions_propagate(self):
        flaky = Flaky(1, exc=KeyError)
        with self.assertRaises(KeyError):
            call_with_retry(flaky, RetryPolicy(), retry_on=(ConnectionError,), sleep=lambda s: None)
        self.assertEqual(flaky.calls, 1)

    def test_decorator(self):
        flaky = Flaky(1)
        wrapped = retrying(RetryPolicy(base_delay=0), sleep=lambda s: None)(flaky)
        self.assertEqual(wrapped(), "ok")


if __name__ == "__main__":
    unittest.main()
