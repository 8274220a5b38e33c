import unittest
from decimal import Decimal

from budget import Budget, Envelope, allocate, carry, money


def household():
    return Budget([
        Envelope("rent", "800", priority=1),
        Envelope("food", "400", priority=2),
        Envelope("holiday", "100", priority=5, carry_over=True, cap="250"),
    ])


class CarryDebtTest(unittest.TestCase):
    def test_debt_carried_without_carry_over(self):
        self.assertEqual(carry(Envelope("food", "400"), money("-50")), Decimal("-50.00"))

    def test_debt_not_capped(self):
        holiday = Envelope("holiday", "100", carry_over=True, cap="250")
        self.assertEqual(carry(holiday, money("-300")), Decimal("-300.00"))

    def test_positive_rules_unchanged(self):
        self.assertEqual(carry(Envelope("food", "400"), money("30")), Decimal("0.00"))


class AllocateDebtTest(unittest.TestCase):
    def test_debt_is_repaid_first(self):
        envelopes = [Envelope("food", "400")]
        allocations, unassigned = allocate("1000", envelopes, {"food": money("-50")})
        self.assertEqual(allocations["food"], Decimal("450.00"))

    def test_surplus_does_not_reduce_funding(self):
        envelopes = [Envelope("holiday", "100", carry_over=True)]
        allocations, _ = allocate("1000", envelopes, {"holiday": money("80")})
        self.assertEqual(allocations["holiday"], Decimal("100.00"))

    def test_opening_is_optional(self):
        allocations, unassigned = allocate("500", [Envelope("food", "400")])
        self.assertEqual(unassigned, Decimal("100.00"))


class PlannerDebtTest(unittest.TestCase):
    def overspend(self):
        budget = household()
        budget.run_month("2025-01", "1300", {"rent": "800", "food": "450"})
        return budget

    def test_overspent_month_carries_debt(self):
        self.assertEqual(self.overspend().opening["food"], Decimal("-50.00"))

    def test_next_month_allocation_covers_debt(self):
        feb = self.overspend().run_month("2025-02", "1300", {"rent": "800", "food": "400"})
        self.assertEqual(feb.allocated["food"], Decimal("450.00"))

    def test_next_month_available_is_target(self):
        feb = self.overspend().run_month("2025-02", "1300", {"rent": "800"})
        self.assertEqual(feb.available("food"), Decimal("400.00"))

    def test_debt_reduces_lower_priorities(self):
        feb = self.overspend().run_month("2025-02", "1300", {"rent": "800", "food": "400"})
        self.assertEqual(feb.allocated["holiday"], Decimal("50.00"))

    def test_debt_larger_than_income(self):
        budget = household()
        budget.run_month("2025-01", "1200", {"rent": "800", "food": "900"})
        feb = budget.run_month("2025-02", "1000", {})
        self.assertEqual(feb.closing["food"], Decimal("-300.00"))


if __name__ == "__main__":
    unittest.main()
