import { createReadStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { arrow } from "./arrow.js";

/** A column of a generated partition: strings, string lists or integers. */
export type PartitionColumn = { name: string; kind: "string" | "strings" | "int" };

/** How a generated partition is written. */
export type PartitionFormat = "ARROW" | "PARQUET";

/** parquet-wasm, loaded on first use (its WebAssembly is not paid for at start). */
let parquet: Promise<typeof import("parquet-wasm")> | undefined;
const parquetWasm = () => {
  parquet ??= import("parquet-wasm");
  return parquet;
};

/** A Parquet file starts (and ends) with these bytes. */
const isParquet = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x41 && b[2] === 0x52 && b[3] === 0x31;

const PARTITION_ID = /^[a-zA-Z0-9_-]{1,200}$/;

/**
 * Partition files of datasets, one folder per dataset under the data dir: uploaded bytes as given, or
 * rows written as an Arrow IPC stream (what upstream trainset streams carry) or a Parquet file (snappy).
 */
export class DatasetFiles {
  constructor(private readonly root: string) {}

  private dir(datasetId: string): string {
    if (!/^[0-9a-f-]{36}$/.test(datasetId)) throw new Error(`invalid dataset id ${datasetId}`);
    return join(this.root, datasetId);
  }

  path(datasetId: string, partition: string): string {
    if (!PARTITION_ID.test(partition)) throw new Error(`invalid partition id ${partition}`);
    return join(this.dir(datasetId), `${partition}.arrow`);
  }

  /** Store a partition's bytes (replacing one of the same id); written aside and renamed, so a reader never sees half. */
  async put(datasetId: string, partition: string, bytes: Uint8Array): Promise<number> {
    await mkdir(this.dir(datasetId), { recursive: true, mode: 0o700 });
    const to = this.path(datasetId, partition);
    await writeFile(`${to}.part`, bytes);
    await rename(`${to}.part`, to);
    return bytes.byteLength;
  }

  /** Write rows as a partition with the given columns (Arrow IPC stream, or Parquet); returns its size. */
  async putRows(
    datasetId: string,
    partition: string,
    columns: PartitionColumn[],
    rows: Record<string, unknown>[],
    format: PartitionFormat = "ARROW",
  ): Promise<number> {
    const fields = columns.map((c) => {
      const type =
        c.kind === "string"
          ? new arrow.Utf8()
          : c.kind === "int"
            ? new arrow.Int32()
            : new arrow.List(new arrow.Field("item", new arrow.Utf8(), true));
      return new arrow.Field(c.name, type, true);
    });
    const schema = new arrow.Schema(fields);
    const data: Record<string, unknown[]> = {};
    for (const c of columns) data[c.name] = rows.map((r) => r[c.name] ?? null);
    const vectors = Object.fromEntries(columns.map((c, i) => [c.name, arrow.vectorFromArray(data[c.name], fields[i].type)]));
    const table = new arrow.Table(schema, vectors);
    const ipc = arrow.tableToIPC(table, "stream");
    if (format === "ARROW") return this.put(datasetId, partition, ipc);
    const pw = await parquetWasm();
    const props = new pw.WriterPropertiesBuilder().setCompression(pw.Compression.SNAPPY).build();
    return this.put(datasetId, partition, pw.writeParquet(pw.Table.fromIPCStream(ipc), props));
  }

  /** Read a partition back as rows, an Arrow IPC stream or a Parquet file alike (tests, `kbox dataset show`). */
  async readRows(datasetId: string, partition: string): Promise<Record<string, unknown>[]> {
    const { readFile } = await import("node:fs/promises");
    const bytes = await readFile(this.path(datasetId, partition));
    const ipc = isParquet(bytes) ? (await parquetWasm()).readParquet(bytes).intoIPCStream() : bytes;
    const table = arrow.tableFromIPC(ipc);
    return table.toArray().map((r) => {
      const o = r.toJSON() as Record<string, unknown>;
      for (const [k, v] of Object.entries(o))
        if (v && typeof v === "object" && "toArray" in v) o[k] = [...(v as unknown as Iterable<unknown>)];
      return o;
    });
  }

  open(datasetId: string, partition: string): Readable {
    return createReadStream(this.path(datasetId, partition));
  }

  async size(datasetId: string, partition: string): Promise<number | undefined> {
    return (await stat(this.path(datasetId, partition)).catch(() => undefined))?.size;
  }

  async remove(datasetId: string, partition: string): Promise<void> {
    await rm(this.path(datasetId, partition), { force: true });
  }

  async removeAll(datasetId: string): Promise<void> {
    await rm(this.dir(datasetId), { recursive: true, force: true });
  }

  async list(datasetId: string): Promise<string[]> {
    const names = await readdir(this.dir(datasetId)).catch(() => [] as string[]);
    return names.filter((n) => n.endsWith(".arrow")).map((n) => n.slice(0, -6));
  }
}
