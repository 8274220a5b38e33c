"""meterly: a small subscription billing engine.

Plans with seat and metered (usage) pricing, coupons, taxes, proration, invoices, payment
collection with retries, JSON persistence and revenue reports. See README.md for a tour.
"""

__version__ = "0.4.2"
