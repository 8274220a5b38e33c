/**
 * A transit network: lines run through stations with a travel time between consecutive stops,
 * and changing line at a station costs a fixed transfer penalty.
 *
 * Internally every (station, line) pair is a graph node `"Station@Line"`, plus one node per
 * station (`"Station"`) for boarding and alighting at no cost.
 */
import { Graph } from "../graph/mod.ts";

/** One line: its name, stops in order and minutes between consecutive stops. */
export interface Line {
  name: string;
  stops: string[];
  minutes: number[];
}

/** Minutes it takes to change lines at a station. */
export const DEFAULT_TRANSFER_MINUTES = 4;

/** Builds the routing graph for a set of lines. */
export function buildNetwork(lines: Line[], transferMinutes = DEFAULT_TRANSFER_MINUTES): Graph {
  const graph = new Graph();
  for (const line of lines) {
    if (line.minutes.length !== line.stops.length - 1) {
      throw new Error(`line ${line.name}: expected ${line.stops.length - 1} travel times, got ${line.minutes.length}`);
    }
    line.stops.forEach((stop, i) => {
      const platform = `${stop}@${line.name}`;
      // Boarding costs the transfer penalty, alighting is free; a trip's first boarding is
      // refunded by the planner.
      graph.addEdge(stop, platform, transferMinutes, "board");
      graph.addEdge(platform, stop, 0, "alight");
      if (i > 0) {
        graph.addUndirected(`${line.stops[i - 1]}@${line.name}`, platform, line.minutes[i - 1], line.name);
      }
    });
  }
  return graph;
}
