import unittest

from ledger import Journal, UnbalancedEntryError, format_cents, to_cents, trial_balance


def make_journal():
    journal = Journal()
    journal.open_account("cash", "asset")
    journal.open_account("sales", "income")
    journal.open_account("rent", "expense")
    return journal


class MoneyTest(unittest.TestCase):
    def test_to_cents_simple(self):
        self.assertEqual(to_cents("12.50"), 1250)
        self.assertEqual(to_cents(3), 300)

    def test_format_cents(self):
        self.assertEqual(format_cents(123450), "1234.50")
        self.assertEqual(format_cents(-5), "-0.05")


class JournalTest(unittest.TestCase):
    def test_unbalanced_rejected(self):
        journal = make_journal()
        with self.assertRaises(UnbalancedEntryError):
            journal.post("2024-01-02", "bad", {"cash": "10.00"}, {"sales": "9.00"})
        self.assertEqual(journal.transactions, [])

    def test_balances(self):
        journal = make_journal()
        journal.post("2024-01-02", "sale", {"cash": "100.00"}, {"sales": "100.00"})
        journal.post("2024-01-03", "rent", {"rent": "40.00"}, {"cash": "40.00"})
        self.assertEqual(journal.accounts["cash"].balance(), 6000)
        self.assertEqual(journal.accounts["sales"].balance(), 10000)


class ReportTest(unittest.TestCase):
    def test_trial_balance_round_amounts(self):
        journal = make_journal()
        journal.post("2024-01-02", "sale", {"cash": "250.00"}, {"sales": "250.00"})
        self.assertEqual(trial_balance(journal), [
            ("cash", "250.00", ""), ("rent", "", ""), ("sales", "", "250.00"), ("TOTAL", "250.00", "250.00"),
        ])


if __name__ == "__main__":
    unittest.main()
