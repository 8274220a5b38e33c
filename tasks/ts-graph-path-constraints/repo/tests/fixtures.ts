import { Graph } from "../src/graph.ts";

/**
 * Flight network (costs in tens of euros):
 * OSL->CPH 2, CPH->AMS 2, AMS->LIS 2, OSL->LIS 11, OSL->AMS 5, CPH->LIS 7, OSL->FRA 1, FRA->LIS 9
 */
export function flights(): Graph {
  return new Graph()
    .addEdge("OSL", "CPH", 2)
    .addEdge("CPH", "AMS", 2)
    .addEdge("AMS", "LIS", 2)
    .addEdge("OSL", "LIS", 11)
    .addEdge("OSL", "AMS", 5)
    .addEdge("CPH", "LIS", 7)
    .addEdge("OSL", "FRA", 1)
    .addEdge("FRA", "LIS", 9);
}
