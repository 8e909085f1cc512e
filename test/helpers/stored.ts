import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";

/**
 * What a knowledge box's table holds at rest, to check that a secret is not in it: its data files'
 * bytes (latin1) and, since document columns are stored zstd-compressed, every row's `doc` as stored
 * (read back through LanceDB, decompressed). A secret must be in neither.
 */
export async function storedText(home: string, kbid: string, table: string): Promise<{ bytes: string; docs: string }> {
  const lance = join(home, "data", "kbs", kbid, "lance");
  const data = join(lance, `${table}.lance`, "data");
  const bytes = readdirSync(data)
    .map((f) => readFileSync(join(data, f)).toString("latin1"))
    .join("");
  const rows = await rowsOf(lance, table);
  return { bytes, docs: rows.map((r) => String(r.doc)).join("\n") };
}

/**
 * Every row of every LanceDB table under `dir` (any depth), as JSON text: what the tables hold once
 * decompressed, for checks that a secret is stored nowhere (raw bytes no longer show compressed text).
 */
export async function lanceRowsUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    const tables = readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory());
    const lance = tables.filter((e) => e.name.endsWith(".lance")).map((e) => e.name.slice(0, -".lance".length));
    if (lance.length) {
      for (const name of lance) {
        out.push(JSON.stringify(await rowsOf(d, name), (_k, v) => (typeof v === "bigint" ? String(v) : v)));
      }
    }
    for (const e of tables) if (!e.name.endsWith(".lance")) await walk(join(d, e.name));
  };
  await walk(dir);
  return out;
}

/** Every row of the table `name` of the LanceDB folder `dir`, as LanceDB reads it back. */
async function rowsOf(dir: string, name: string): Promise<Record<string, unknown>[]> {
  return (await (await lancedb.connect(dir)).openTable(name)).query().toArray();
}
