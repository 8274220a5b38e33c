import unittest

from gridcalc.csvio import import_csv
from gridcalc.deps import DependencyGraph

from tests.support import code, sheet_with


class RecalcOrderTest(unittest.TestCase):
    def test_reader_of_two_changed_paths_comes_last(self):
        graph = DependencyGraph()
        graph.set_precedents("b", {"a", "c"})
        graph.set_precedents("c", {"a"})
        order = graph.recalc_order(["a"])
        self.assertEqual(sorted(order), ["a", "b", "c"])
        self.assertLess(order.index("c"), order.index("b"))

    def test_every_cell_after_its_precedents(self):
        graph = DependencyGraph()
        edges = {"b": {"c", "a"}, "c": {"d"}, "d": {"e", "a"}, "e": {"a"}, "f": {"b", "e"}}
        for cell, reads in edges.items():
            graph.set_precedents(cell, reads)
        order = graph.recalc_order(["a"])
        self.assertEqual(set(order), {"a", "b", "c", "d", "e", "f"})
        for cell, reads in edges.items():
            for read in reads:
                self.assertLess(order.index(read), order.index(cell), f"{read} before {cell}")

    def test_several_changed_cells(self):
        graph = DependencyGraph()
        graph.set_precedents("a", {"b"})
        graph.set_precedents("b", {"c"})
        order = graph.recalc_order(["a", "c"])
        self.assertEqual(order, ["c", "b", "a"])


class DiamondTest(unittest.TestCase):
    def test_diamond_after_edit(self):
        sheet = sheet_with({"A1": "1", "B1": "=A1+C1", "C1": "=A1*2"})
        self.assertEqual(sheet.get("B1"), 3.0)
        sheet.set("A1", "5")
        self.assertEqual(sheet.get("C1"), 10.0)
        self.assertEqual(sheet.get("B1"), 15.0)

    def test_invoice_layout(self):
        # totals above the lines they add up, as in a typical invoice sheet
        sheet = sheet_with({
            "B1": "=B2+B3", "B2": "=SUM(D5:D7)", "B3": "=B2*0.2",
            "C5": "2", "C6": "1", "C7": "3",
            "D5": "=C5*10", "D6": "=C6*25", "D7": "=C7*5",
        })
        self.assertEqual(sheet.get("B1"), 72.0)
        sheet.set("C6", "3")
        self.assertEqual(sheet.get("B2"), 110.0)
        self.assertAlmostEqual(sheet.get("B3"), 22.0)
        self.assertAlmostEqual(sheet.get("B1"), 132.0)

    def test_chain_against_reference(self):
        cells = {"A1": "3"}
        for row in range(2, 13):
            cells[f"A{row}"] = f"=A{row - 1}+B{row - 1}"
            cells[f"B{row - 1}"] = f"=A{row - 1}*2"
        sheet = sheet_with(cells)
        sheet.set("A1", "1")
        self.assertEqual(sheet.get("A2"), 3.0)
        self.assertEqual(sheet.get("B2"), 6.0)
        self.assertEqual(sheet.get("A5"), 81.0)
        self.assertEqual(sheet.get("B5"), 162.0)
        self.assertEqual(sheet.get("B11"), 118098.0)
        self.assertEqual(sheet.get("A12"), 177147.0)

    def test_import_with_formulas_reading_later_ones(self):
        sheet = import_csv("1,=A1+C1,=A1*2\n")
        self.assertEqual(sheet.get("B1"), 3.0)


class OverwrittenFormulaTest(unittest.TestCase):
    def test_constant_over_formula_forgets_its_references(self):
        sheet = sheet_with({"A1": "=B1"})
        sheet.set("A1", "5")
        self.assertEqual(sheet.precedents("A1"), [])
        sheet.set("B1", "=A1")
        self.assertEqual(sheet.get("B1"), 5.0)
        self.assertEqual(sheet.get("A1"), 5.0)

    def test_cleared_formula_forgets_its_references(self):
        sheet = sheet_with({"A1": "=B1*2", "B1": "3"})
        sheet.clear("A1")
        sheet.set("B1", "=A1+1")
        self.assertEqual(sheet.get("B1"), 1.0)

    def test_cycle_still_reported(self):
        sheet = sheet_with({"A1": "=B1", "B1": "=A1"})
        self.assertEqual(code(sheet.get("A1")), "#CYCLE!")
        sheet.set("A1", "4")
        self.assertEqual(sheet.get("B1"), 4.0)

    def test_real_cycle_after_overwrite(self):
        sheet = sheet_with({"A1": "7"})
        sheet.set("A1", "=C1")
        sheet.set("C1", "=A1")
        self.assertEqual(code(sheet.get("C1")), "#CYCLE!")


if __name__ == "__main__":
    unittest.main()
