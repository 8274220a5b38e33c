import unittest

from gridcalc.deps import DependencyGraph


class DependencyGraphTest(unittest.TestCase):
    def test_edges_both_ways(self):
        graph = DependencyGraph()
        graph.set_precedents("b", {"a"})
        graph.set_precedents("c", {"a", "b"})
        self.assertEqual(graph.precedents("c"), {"a", "b"})
        self.assertEqual(graph.dependents("a"), {"b", "c"})

    def test_replacing_precedents_drops_old_edges(self):
        graph = DependencyGraph()
        graph.set_precedents("b", {"a"})
        graph.set_precedents("b", {"x"})
        self.assertEqual(graph.dependents("a"), frozenset())
        self.assertEqual(graph.dependents("x"), {"b"})

    def test_recalc_order_chain(self):
        graph = DependencyGraph()
        graph.set_precedents("b", {"a"})
        graph.set_precedents("c", {"b"})
        self.assertEqual(graph.recalc_order(["a"]), ["a", "b", "c"])

    def test_recalc_order_leaves_out_unrelated_cells(self):
        graph = DependencyGraph()
        graph.set_precedents("b", {"a"})
        graph.set_precedents("y", {"x"})
        self.assertEqual(graph.recalc_order(["x"]), ["x", "y"])

    def test_cycles(self):
        graph = DependencyGraph()
        graph.set_precedents("a", {"b"})
        graph.set_precedents("b", {"a"})
        graph.set_precedents("c", {"a"})
        graph.set_precedents("d", {"d"})
        self.assertEqual(graph.cyclic_cells(), {"a", "b", "d"})

    def test_no_cycle(self):
        graph = DependencyGraph()
        graph.set_precedents("b", {"a"})
        self.assertEqual(graph.cyclic_cells(), set())


if __name__ == "__main__":
    unittest.main()
