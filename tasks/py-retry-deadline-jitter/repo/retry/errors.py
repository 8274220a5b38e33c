"""Errors raised by the retry helpers."""


class RetryError(Exception):
    """Raised when an operation still fails after the allowed attempts.

    ``attempts`` is how many times the operation was called and ``last_exception`` the error of
    the final attempt (also chained as ``__cause__``).
    """

    def __init__(self, attempts, last_exception):
        super().__init__(f"gave up after {attempts} attempt(s): {last_exception!r}")
        self.attempts = attempts
        self.last_exception = last_exception
