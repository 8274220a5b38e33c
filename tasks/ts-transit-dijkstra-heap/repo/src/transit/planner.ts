/**
 * Trip planning on top of {@linkcode buildNetwork}.
 */
import { routeTo, shortestPaths } from "../graph/mod.ts";
import type { Graph } from "../graph/mod.ts";
import { DEFAULT_TRANSFER_MINUTES } from "./network.ts";

/** One ride on one line. */
export interface Leg {
  line: string;
  from: string;
  to: string;
  minutes: number;
}

/** A planned trip. */
export interface Trip {
  minutes: number;
  legs: Leg[];
}

/** The fastest trip between two stations, or `null` when there is none. */
export function planTrip(
  network: Graph,
  from: string,
  to: string,
  transferMinutes = DEFAULT_TRANSFER_MINUTES,
): Trip | null {
  if (from === to) return { minutes: 0, legs: [] };
  const route = routeTo(shortestPaths(network, from), to);
  if (!route) return null;
  const legs: Leg[] = [];
  route.edges.forEach((edge, i) => {
    if (edge.label === "board" || edge.label === "alight") return;
    const start = route.nodes[i].split("@")[0];
    const end = route.nodes[i + 1].split("@")[0];
    const last = legs[legs.length - 1];
    if (last && last.line === edge.label && last.to === start) {
      last.to = end;
      last.minutes += edge.weight;
    } else {
      legs.push({ line: edge.label!, from: start, to: end, minutes: edge.weight });
    }
  });
  return { minutes: route.total - transferMinutes, legs };
}
