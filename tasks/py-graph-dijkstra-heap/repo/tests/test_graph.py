import unittest

from graph import Graph, MinHeap, NoPathError, RoutePlanner, shortest_path


class MinHeapTest(unittest.TestCase):
    def test_pops_in_priority_order(self):
        heap = MinHeap()
        for priority in [5, 1, 4, 2, 3]:
            heap.push(priority, f"job{priority}")
        self.assertEqual([heap.pop() for _ in range(5)],
                         [(1, "job1"), (2, "job2"), (3, "job3"), (4, "job4"), (5, "job5")])

    def test_equal_priorities_are_fifo(self):
        heap = MinHeap()
        for name in ["a", "b", "c"]:
            heap.push(1, name)
        self.assertEqual([heap.pop()[1] for _ in range(3)], ["a", "b", "c"])

    def test_empty_heap(self):
        with self.assertRaises(IndexError):
            MinHeap().pop()


class ShortestPathTest(unittest.TestCase):
    def setUp(self):
        self.graph = Graph.from_edges([("a", "b", 4), ("a", "c", 1), ("c", "b", 2), ("b", "d", 5)])

    def test_prefers_cheaper_detour(self):
        self.assertEqual(shortest_path(self.graph, "a", "d"), (8, ["a", "c", "b", "d"]))

    def test_unreachable(self):
        self.graph.add_node("z")
        with self.assertRaises(NoPathError):
            shortest_path(self.graph, "a", "z")

    def test_negative_weight_rejected(self):
        with self.assertRaises(ValueError):
            self.graph.add_edge("a", "d", -1)


class RoutePlannerTest(unittest.TestCase):
    def test_closed_road(self):
        planner = RoutePlanner(Graph.from_edges([("a", "b", 1), ("b", "c", 1), ("a", "c", 5)]))
        planner.close_road("a", "b")
        self.assertEqual(planner.plan(["a", "c"]), (5, ["a", "c"]))
        planner.reopen_all()
        self.assertEqual(planner.plan(["a", "c"]), (2, ["a", "b", "c"]))


if __name__ == "__main__":
    unittest.main()
