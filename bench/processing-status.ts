/**
 * The processing status's index (issue 17, daemon/store/resource-index.ts) at N resources, in memory:
 * the time of a poll as `kbox add --wait` makes them (PENDING, limit 1; pages of 1,000), against a
 * pass over every resource with a sort (what the route did before), and the index's upkeep.
 *   npx tsx bench/processing-status.ts [--resources 100000]
 */
import { parseArgs } from "node:util";
import type { DocObserver } from "../daemon/store/doc-table.js";
import type { ResourceDoc } from "../daemon/store/records.js";
import { ResourceIndex } from "../daemon/store/resource-index.js";

const { values } = parseArgs({ options: { resources: { type: "string", default: "100000" } } });
const N = Number(values.resources);

/** The resources table's cache as the index sees it: a Map, and its observers told of each put. */
class Table {
  readonly docs = new Map<string, ResourceDoc>();
  private readonly observers: DocObserver<ResourceDoc>[] = [];
  get = (id: string) => this.docs.get(id);
  observe(fn: DocObserver<ResourceDoc>) {
    for (const [id, d] of this.docs) fn(id, undefined, d);
    this.observers.push(fn);
  }
  put(id: string, d: ResourceDoc) {
    const before = this.docs.get(id);
    this.docs.set(id, d);
    for (const fn of this.observers) fn(id, before, d);
  }
}

/** A page as the route computed it before the index: every resource filtered, then sorted. */
function pass(docs: Iterable<ResourceDoc>, status: string | undefined, limit: number): ResourceDoc[] {
  const m = [...docs].filter((r) => !status || r.metadata.status === status);
  m.sort((a, b) => (a.created < b.created || (a.created === b.created && a.id < b.id) ? -1 : 1));
  return m.slice(0, limit);
}

function time(label: string, fn: () => unknown, reps = 20): void {
  fn();
  const t = performance.now();
  for (let i = 0; i < reps; i++) fn();
  console.log(`${label.padEnd(44)} ${((performance.now() - t) / reps).toFixed(3)} ms`);
}

const table = new Table();
const t0 = Date.parse("2026-01-01T00:00:00Z");
for (let i = 0; i < N; i++) {
  const id = `${(i * 2654435761) % 2 ** 32}`.padStart(10, "0") + i; // ids in no order
  const created = new Date(t0 + i * 7).toISOString();
  table.put(id, { id, created, modified: created, metadata: { status: "PENDING" }, fields: {} } as unknown as ResourceDoc);
}
let t = performance.now();
const index = new ResourceIndex(table);
console.log(`index of ${N} resources built in ${(performance.now() - t).toFixed(1)} ms`);
const ids = [...table.docs.keys()];
t = performance.now();
for (const id of ids.slice(0, N / 2)) {
  const d = table.get(id) as ResourceDoc;
  table.put(id, { ...d, metadata: { status: "PROCESSED" } });
}
console.log(`${N / 2} puts changing the status: ${(performance.now() - t).toFixed(1)} ms (index upkeep included)`);
console.log("half processed:             index / pass over all");
time("  totals", () => index.totals());
time("  status=PENDING limit=1 (index)", () => index.page(["PENDING"], undefined, 1));
time("  status=PENDING limit=1 (pass)", () => pass(table.docs.values(), "PENDING", 1));
time("  status=PENDING limit=1000 (index)", () => index.page(["PENDING"], undefined, 1000));
time("  status=PENDING limit=1000 (pass)", () => pass(table.docs.values(), "PENDING", 1000));
time("  no filter limit=100 (index)", () => index.page(undefined, undefined, 100));
time("  no filter limit=100 (pass)", () => pass(table.docs.values(), undefined, 100));
