// The engine over a cube of about a million cells (36 months, ~9,300 clients with six services each,
// ~28,000 cells a month): medians and p95 of the calls a dashboard makes.
// Run: npm run bench -w @varia/variance
import { buildCube, type CubeRow, kpis, trend, variance, waterfall } from "../src/index";

let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const rows: CubeRow[] = [];
const clients = 9300;
for (let c = 1; c <= clients; c++) {
  const start = Math.floor(random() * 30);
  const end = random() < 0.33 ? Math.min(35, start + 3 + Math.floor(random() * 24)) : 35;
  const owner = 1 + (c % 10);
  for (let k = 0; k < 6; k++) {
    const item = ((c * 3 + k * 7) % 40) + 1;
    for (let m = start; m <= end; m++) {
      const seats = 1 + (c % 10) + (m > start + 12 ? 1 : 0);
      const price = 1000 + item * 37 + (m >= 24 ? 150 : 0);
      rows.push({
        recordType: "Actual",
        month: 2023 * 12 + m,
        clientId: c,
        itemId: item,
        salespersonId: m > 18 && c % 7 === 0 ? 1 + ((c + 1) % 10) : owner,
        quantity: seats * 10_000,
        revenue: seats * price,
        cost: Math.round(seats * price * 0.4),
      });
    }
  }
}
const built = performance.now();
const cube = buildCube({
  clients: Array.from({ length: clients }, (_, i) => ({
    id: i + 1,
    code: `C${i + 1}`,
    name: `Client ${i + 1}`,
  })),
  items: Array.from({ length: 40 }, (_, i) => ({
    id: i + 1,
    code: `I${i + 1}`,
    name: `Item ${i + 1}`,
    stockType: (i + 1) % 5 === 0 ? ("Hourly" as const) : ("Subscription" as const),
    category: (i + 1) % 8 === 0 ? ("Adhoc" as const) : ("Recurring" as const),
  })),
  salespeople: Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `Rep ${i + 1}` })),
  rows,
});
console.log(`cube: ${cube.size} cells, built in ${(performance.now() - built).toFixed(0)} ms`);

function measure(name: string, runs: number, f: () => unknown) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    f();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(`| ${name} | ${at(0.5)} ms | ${at(0.95)} ms |`);
}

const from = 2024 * 12 + 4;
const query = { dataType: "Revenue" as const, from, to: from + 1 };
console.log("| call | median | p95 |\n|---|---|---|");
measure("variance (summary)", 50, () => variance(cube, { ...query, detail: "summary" }));
measure("variance (full: lines and contributions)", 50, () => variance(cube, query));
measure("variance (one salesperson)", 50, () => variance(cube, { ...query, salespersonId: 3 }));
measure("kpis", 50, () => kpis(cube, query));
measure("waterfall", 50, () => waterfall(cube, query));
measure("trend (8 months)", 20, () => trend(cube, { dataType: "Revenue", periodTo: from + 1 }));
// Exclusion lists: the same question with clients or items left out (a Set lookup per cell).
const someClients = new Set(Array.from({ length: 100 }, (_, i) => 1 + i * 93));
const manyClients = new Set(Array.from({ length: 1000 }, (_, i) => 1 + i * 9));
measure("variance (summary), 100 clients excluded", 50, () =>
  variance(cube, { ...query, detail: "summary", excludedClientIds: someClients }),
);
measure("variance (summary), 1,000 clients excluded", 50, () =>
  variance(cube, { ...query, detail: "summary", excludedClientIds: manyClients }),
);
measure("variance (summary), 5 items excluded", 50, () =>
  variance(cube, { ...query, detail: "summary", excludedItemIds: new Set([1, 9, 17, 25, 33]) }),
);
