import heapq
import random
import unittest

from graph import Graph, MinHeap, RoutePlanner, dijkstra, shortest_path

ROADS = [
    ("farm", "hub", 7), ("hub", "lake", 3), ("school", "hub", 7), ("hub", "market", 1),
    ("hub", "church", 5), ("depot", "mill", 8), ("hub", "mill", 5), ("depot", "hub", 2),
    ("quarry", "mill", 7),
]


class RoutingTest(unittest.TestCase):
    def test_cheapest_route_through_hub(self):
        self.assertEqual(shortest_path(Graph.from_edges(ROADS), "depot", "quarry"),
                         (14, ["depot", "hub", "mill", "quarry"]))

    def test_all_distances_from_depot(self):
        dist, _ = dijkstra(Graph.from_edges(ROADS), "depot")
        self.assertEqual(dist, {"depot": 0, "hub": 2, "mill": 7, "quarry": 14, "farm": 9, "lake": 5,
                                "school": 9, "market": 3, "church": 7})

    def test_multi_stop_plan(self):
        planner = RoutePlanner(Graph.from_edges(ROADS))
        self.assertEqual(planner.plan(["depot", "quarry", "lake"]),
                         (29, ["depot", "hub", "mill", "quarry", "mill", "hub", "lake"]))

    def test_heap_matches_reference_under_interleaving(self):
        rng = random.Random(7)
        heap, reference, popped, expected = MinHeap(), [], [], []
        for _ in range(400):
            if reference and rng.random() < 0.4:
                popped.append(heap.pop()[0])
                expected.append(heapq.heappop(reference))
            else:
                value = rng.randint(0, 100)
                heap.push(value, value)
                heapq.heappush(reference, value)
        self.assertEqual(popped, expected)

    def test_directed_edges(self):
        graph = Graph.from_edges([("a", "b", 1), ("b", "c", 1), ("c", "a", 1)], directed=True)
        self.assertEqual(shortest_path(graph, "a", "c"), (2, ["a", "b", "c"]))
        self.assertEqual(shortest_path(graph, "c", "b"), (2, ["c", "a", "b"]))

    def test_peek_does_not_remove(self):
        heap = MinHeap()
        heap.push(3, "x")
        heap.push(1, "y")
        self.assertEqual(heap.peek(), (1, "y"))
        self.assertEqual(len(heap), 2)


if __name__ == "__main__":
    unittest.main()
