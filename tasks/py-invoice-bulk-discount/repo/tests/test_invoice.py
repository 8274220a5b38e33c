import unittest
from decimal import Decimal

from invoice import Invoice, LineItem, tax_for


class LineItemTest(unittest.TestCase):
    def test_gross_amount(self):
        line = LineItem("Widget", 3, "2.50")
        self.assertEqual(line.gross(), Decimal("7.50"))

    def test_small_order_has_no_discount(self):
        line = LineItem("Widget", 2, "9.99")
        self.assertEqual(line.discount(), Decimal("0.00"))
        self.assertEqual(line.net(), Decimal("19.98"))

    def test_rejects_zero_quantity(self):
        with self.assertRaises(ValueError):
            LineItem("Widget", 0, "1.00")


class TaxTest(unittest.TestCase):
    def test_standard_rate(self):
        self.assertEqual(tax_for(LineItem("Book", 1, "10.00")), Decimal("2.00"))

    def test_unknown_category(self):
        with self.assertRaises(ValueError):
            tax_for(LineItem("Book", 1, "10.00", "luxury"))


class InvoiceTest(unittest.TestCase):
    def test_total_of_small_invoice(self):
        inv = Invoice("INV-1", "ACME")
        inv.add_line("Widget", 2, "5.00")
        inv.add_line("Food", 1, "10.00", "reduced")
        self.assertEqual(inv.subtotal(), Decimal("20.00"))
        self.assertEqual(inv.tax_total(), Decimal("2.50"))
        self.assertEqual(inv.total(), Decimal("22.50"))


if __name__ == "__main__":
    unittest.main()
