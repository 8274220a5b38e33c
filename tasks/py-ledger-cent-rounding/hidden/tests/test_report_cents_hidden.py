import unittest
from decimal import Decimal

from ledger import Journal, render_trial_balance, to_cents, trial_balance


def make_journal():
    journal = Journal()
    journal.open_account("cash", "asset")
    journal.open_account("sales", "income")
    return journal


class TrialBalanceCentsTest(unittest.TestCase):
    def test_trial_balance_keeps_every_cent(self):
        journal = make_journal()
        journal.post("2024-02-01", "sale", {"cash": "19.99"}, {"sales": "19.99"})
        journal.post("2024-02-02", "sale", {"cash": "0.29"}, {"sales": "0.29"})
        rows = trial_balance(journal)
        self.assertEqual(rows[0], ("cash", "20.28", ""))
        self.assertEqual(rows[-1], ("TOTAL", "20.28", "20.28"))

    def test_account_balance_from_float_amounts(self):
        journal = make_journal()
        journal.post("2024-02-01", "sale", {"cash": 4.35}, {"sales": 4.35})
        self.assertEqual(journal.accounts["sales"].balance(), 435)

    def test_rendered_report(self):
        journal = make_journal()
        journal.post("2024-02-01", "sale", {"cash": "1,024.36"}, {"sales": "1,024.36"})
        self.assertIn("1024.36", render_trial_balance(journal).splitlines()[1])

    def test_negative_and_decimal_amounts(self):
        self.assertEqual(to_cents("-0.57"), -57)
        self.assertEqual(to_cents(Decimal("2.675")), 268)

    def test_round_amounts_unchanged(self):
        self.assertEqual(to_cents("7.25"), 725)
        self.assertEqual(to_cents(-2), -200)


if __name__ == "__main__":
    unittest.main()
