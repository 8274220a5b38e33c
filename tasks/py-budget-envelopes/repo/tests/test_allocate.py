import unittest
from decimal import Decimal

from budget import Envelope, allocate, carry, money


class MoneyTest(unittest.TestCase):
    def test_rounding(self):
        self.assertEqual(money("2.345"), Decimal("2.35"))

    def test_float_rejected(self):
        with self.assertRaises(TypeError):
            money(1.1)


class AllocateTest(unittest.TestCase):
    def test_priority_order_and_unassigned(self):
        envelopes = [Envelope("fun", "100", priority=5), Envelope("rent", "800", priority=1)]
        allocations, unassigned = allocate("1000", envelopes)
        self.assertEqual(allocations, {"rent": Decimal("800.00"), "fun": Decimal("100.00")})
        self.assertEqual(unassigned, Decimal("100.00"))

    def test_income_runs_out(self):
        envelopes = [Envelope("rent", "800", priority=1), Envelope("food", "400", priority=2),
                     Envelope("fun", "100", priority=3)]
        allocations, unassigned = allocate("1000", envelopes)
        self.assertEqual([allocations[n] for n in ("rent", "food", "fun")],
                         [Decimal("800.00"), Decimal("200.00"), Decimal("0.00")])
        self.assertEqual(unassigned, Decimal("0.00"))


class CarryTest(unittest.TestCase):
    def test_positive_balance(self):
        holiday = Envelope("holiday", "100", carry_over=True, cap="250")
        self.assertEqual(carry(holiday, money("120")), Decimal("120.00"))
        self.assertEqual(carry(holiday, money("300")), Decimal("250.00"))
        self.assertEqual(carry(Envelope("food", "400"), money("30")), Decimal("0.00"))


if __name__ == "__main__":
    unittest.main()
