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
  const db = await lancedb.connect(lance);
  const rows = await (await db.openTable(table)).query().select(["doc"]).toArray();
  return { bytes, docs: rows.map((r) => String(r.doc)).join("\n") };
}
