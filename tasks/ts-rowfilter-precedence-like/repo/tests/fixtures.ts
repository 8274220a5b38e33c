/** Sample rows shared by the tests. */
export const people = [
  { id: 1, name: "Alice", age: 34, city: "Paris", email: "alice@example.com", manager: null },
  { id: 2, name: "Bob", age: 27, city: "Lyon", email: "bob@example.com", manager: 1 },
  { id: 3, name: "Chloé", age: 41, city: "Nice", email: "chloe@mail.example.org", manager: 1 },
  { id: 4, name: "Dan", age: 19, city: "Paris", email: "dan@exampleXcom", manager: 2 },
  { id: 5, name: "Eve", age: 52, city: "Lille", email: "eve+news@example.com", manager: 3, address: { zip: "59000" } },
];

/** The ids of some rows. */
export const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
