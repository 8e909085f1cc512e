import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { arrow, tableOf } from "../../../daemon/store/arrow.js";
import { appendRows, nativeTable, openDb } from "../../../daemon/store/db.js";

const { Field, Int32, Schema, Utf8 } = arrow;
const root = mkdtempSync(join(tmpdir(), "kbox-arrow-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const schema = new Schema([
  new Field("id", new Utf8(), false),
  new Field("note", new Utf8(), true),
  new Field("n", new Int32(), false),
]);
const values = [
  "",
  "plain",
  "naïve café",
  "日本語のテキスト",
  "emoji 🧭 and \u0000 nul",
  "lone \ud800 surrogate",
  // Halves of one emoji at the end of a value and the start of the next: each stays a lone surrogate.
  "ends with half \ud83e",
  "\udded starts with the other half",
  "x".repeat(70_000),
];
/** A string as UTF-8 carries it: each lone surrogate as U+FFFD. */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
const rows = values.map((v, i) => ({ id: v, note: i % 3 === 0 ? null : i % 3 === 1 ? undefined : `${v}!`, n: i }));

describe("tableOf (Arrow columns for LanceDB writes)", () => {
  it("builds string columns byte for byte as Arrow's own builder does: UTF-8, nulls, required columns' empty value", () => {
    const t = tableOf(schema, rows);
    const b = arrow.makeBuilder({ type: new Utf8(), nullValues: [null, undefined] });
    for (const r of rows) b.append(r.note);
    const expected = b.finish().flush();
    const note = t.getChild("note")?.data[0];
    expect(note?.nullCount).toBe(expected.nullCount);
    // Arrow's builder pads its buffers: compare what the rows use.
    const used = (d: { values: Uint8Array; valueOffsets: Int32Array }) =>
      Buffer.from(d.values.subarray(0, d.valueOffsets[rows.length]));
    expect(note && used(note).equals(used(expected))).toBe(true);
    expect([...(note?.valueOffsets ?? [])]).toEqual([...expected.valueOffsets.subarray(0, rows.length + 1)]);
    expect(t.getChild("note")?.toArray()).toEqual(rows.map((r) => (r.note == null ? null : wellFormed(r.note))));
    expect(t.getChild("id")?.toArray()).toEqual(values.map((v) => wellFormed(v)));
    // A required column missing in a row takes "".
    expect(
      tableOf(schema, [{ n: 1 }])
        .getChild("id")
        ?.get(0),
    ).toBe("");
  });

  it("round-trips through a LanceDB table", async () => {
    const db = await openDb(join(root, "db"));
    const table = await db.createEmptyTable("t", schema);
    await table.add(tableOf(schema, rows));
    const back = (await table.query().toArray()).sort((a, b) => a.n - b.n);
    expect(back.map((r) => r.id)).toEqual(values.map((v) => wellFormed(v)));
    expect(back.map((r) => r.note ?? null)).toEqual(rows.map((r) => (r.note == null ? null : wellFormed(r.note))));
  });

  it("appends rows handed to LanceDB's native table without its copies, as a table or as its IPC bytes", async () => {
    const db = await openDb(join(root, "db-append"));
    const table = await db.createEmptyTable("t", schema);
    // The native table is where this LanceDB keeps it: were it moved, appends would still work, slower.
    expect(nativeTable(table)).toBeDefined();
    await appendRows(table, tableOf(schema, rows.slice(0, 3)));
    await appendRows(table, arrow.tableToIPC(tableOf(schema, rows.slice(3)), "file"));
    expect(await table.version()).toBe(3);
    const back = (await table.query().toArray()).sort((a, b) => a.n - b.n);
    expect(back.map((r) => r.id)).toEqual(values.map((v) => wellFormed(v)));
    expect(back.map((r) => r.n)).toEqual(values.map((_, i) => i));
  });
});
