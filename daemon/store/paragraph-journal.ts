import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { arrow } from "./arrow.js";
import { appendRows, type Table } from "./db.js";

/**
 * The replace in flight on the paragraph table. A replace is two commits (delete the fields' old
 * rows, add the new ones) because LanceDB's one-commit form, a merge-insert that deletes "not
 * matched by source" rows, scans the whole table on every commit. The journal holds what the
 * second commit adds, written before the first commit, so that a crash in between is rolled
 * forward on the next open instead of leaving fields without paragraphs. Replaying is idempotent:
 * delete the same rows again (new ones included) and add them again.
 */
export class ReplaceJournal {
  constructor(private readonly path?: string) {}

  /** Record a replace before its first commit (atomically: a torn journal is never replayed); `ipc`: the rows it adds, as an Arrow IPC file. */
  async write(where: string, ipc: Uint8Array): Promise<void> {
    if (!this.path) return;
    const header = Buffer.from(`${JSON.stringify({ where })}\n`);
    const tmp = `${this.path}.tmp`;
    await writeFile(tmp, Buffer.concat([header, ipc]), { mode: 0o600 });
    await rename(tmp, this.path);
  }

  /** The replace is fully committed. */
  async clear(): Promise<void> {
    if (this.path) await rm(this.path, { force: true });
  }

  /** Finish a replace a crash interrupted; true when there was one. */
  async replay(table: Table): Promise<boolean> {
    if (!this.path) return false;
    let buf: Buffer;
    try {
      buf = await readFile(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw e;
    }
    const nl = buf.indexOf(10);
    const { where } = JSON.parse(buf.subarray(0, nl).toString("utf8")) as { where: string };
    const data = arrow.tableFromIPC(buf.subarray(nl + 1));
    await table.delete(where);
    if (data.numRows) await appendRows(table, data);
    await this.clear();
    return true;
  }
}
