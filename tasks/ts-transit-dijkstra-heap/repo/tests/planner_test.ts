import assert from "node:assert/strict";
import { buildNetwork, planTrip } from "../src/mod.ts";

const network = buildNetwork([
  { name: "Red", stops: ["Airport", "Central", "Museum", "Harbor"], minutes: [7, 4, 5] },
  { name: "Blue", stops: ["Central", "Park", "University"], minutes: [9, 6] },
  { name: "Green", stops: ["Museum", "Park", "Stadium"], minutes: [7, 9] },
]);

Deno.test("planTrip rides one line without transfers", () => {
  assert.deepEqual(planTrip(network, "Airport", "Harbor"), {
    minutes: 16,
    legs: [{ line: "Red", from: "Airport", to: "Harbor", minutes: 16 }],
  });
});

Deno.test("planTrip charges the transfer penalty when changing lines", () => {
  const trip = planTrip(network, "Airport", "University");
  assert.equal(trip?.minutes, 7 + 4 + 9 + 6);
  assert.deepEqual(trip?.legs.map((leg) => leg.line), ["Red", "Blue"]);
});

Deno.test("planTrip returns null for unknown destinations and zero for the same station", () => {
  assert.equal(planTrip(network, "Airport", "Nowhere"), null);
  assert.deepEqual(planTrip(network, "Park", "Park"), { minutes: 0, legs: [] });
});
