import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { Dataset } from "../../src/api/datasets.js";
import { invalid, notFound } from "../errors.js";
import type { KbService } from "../kbs/service.js";
import type { DocTable } from "../store/doc-table.js";
import { type DatasetDoc, DatasetFiles, type DatasetType, type Store } from "../store/index.js";
import { COLUMNS, datasetRows } from "./generate.js";

/**
 * Datasets of an account: records (name, filter, type), partition files (uploaded, or generated from a
 * knowledge box in the type's shape as Arrow IPC streams or Parquet files, as the dataset says; see generate.ts).
 */
export class DatasetService {
  private constructor(
    private readonly table: DocTable<DatasetDoc>,
    private readonly files: DatasetFiles,
    private readonly kbs: KbService,
    private readonly resolveAccount: (ref?: string) => string,
  ) {}

  static async open(
    store: Store,
    dataDir: string,
    kbs: KbService,
    resolveAccount: (ref?: string) => string,
  ): Promise<DatasetService> {
    return new DatasetService(await store.metaTable<DatasetDoc>("datasets"), new DatasetFiles(dataDir), kbs, resolveAccount);
  }

  private view(d: DatasetDoc): Dataset {
    return {
      id: d.id,
      account_id: d.account_id,
      name: d.name,
      type: d.type,
      filter: d.filter,
      created: d.created,
      partitions: Object.entries(d.partitions)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([id, size]) => ({ id, size })),
      generated_from: d.generated_from ?? null,
      format: d.format ?? "ARROW",
    };
  }

  private require(ref: string | undefined, id: string): DatasetDoc {
    const d = this.table.get(id);
    if (!d || d.account_id !== this.resolveAccount(ref)) throw notFound(`Dataset ${id} not found`);
    return d;
  }

  async create(
    ref: string | undefined,
    body: { name: string; filter: Record<string, unknown>; type: DatasetType; format?: "ARROW" | "PARQUET" },
  ): Promise<{ id: string }> {
    const doc: DatasetDoc = {
      id: randomUUID(),
      account_id: this.resolveAccount(ref),
      name: body.name,
      type: body.type,
      filter: body.filter,
      format: body.format ?? "ARROW",
      created: new Date().toISOString(),
      partitions: {},
    };
    await this.table.put(doc.id, doc);
    return { id: doc.id };
  }

  list(ref: string | undefined): { datasets: Dataset[] } {
    const account = this.resolveAccount(ref);
    return {
      datasets: [...this.table.values()]
        .filter((d) => d.account_id === account)
        .sort((a, b) => a.created.localeCompare(b.created))
        .map((d) => this.view(d)),
    };
  }

  get(ref: string | undefined, id: string): Dataset {
    return this.view(this.require(ref, id));
  }

  async delete(ref: string | undefined, id: string): Promise<void> {
    this.require(ref, id);
    await this.files.removeAll(id);
    await this.table.delete(id);
  }

  async upload(ref: string | undefined, id: string, partition: string, bytes: Uint8Array): Promise<void> {
    const d = this.require(ref, id);
    const size = await this.files.put(id, partition, bytes);
    await this.table.put(id, { ...d, partitions: { ...d.partitions, [partition]: size } });
  }

  download(ref: string | undefined, id: string, partition: string): { stream: Readable; size: number; format: string } {
    const d = this.require(ref, id);
    const size = d.partitions[partition];
    if (size === undefined) throw notFound(`Partition ${partition} not found`);
    return { stream: this.files.open(id, partition), size, format: d.format ?? "ARROW" };
  }

  /** Tasks of a dataset: none run on datasets here. */
  tasks(ref: string | undefined, id: string) {
    this.require(ref, id);
    return { tasks: [], running: [], configs: [], done: [] };
  }

  /** Starting a task on a dataset: a 422 saying why, and what to do instead. */
  startTask(ref: string | undefined, id: string, name: string): never {
    this.require(ref, id);
    throw invalid([
      {
        type: "value_error",
        loc: ["body", "name"],
        msg:
          `tasks on datasets are not supported here: kbox runs ${name} on a knowledge box ` +
          "(POST /api/v1/kb/{kb}/task/start), whose results a dataset then exports (POST .../dataset/{id}/generate)",
        input: name,
      },
    ]);
  }

  /** A dataset task by id: none exists here. */
  task(ref: string | undefined, id: string, taskId: string): never {
    this.require(ref, id);
    throw notFound(`Task ${taskId} not found: no task runs on a dataset here (tasks run on knowledge boxes)`);
  }

  async deletePartition(ref: string | undefined, id: string, partition: string): Promise<void> {
    const d = this.require(ref, id);
    if (d.partitions[partition] === undefined) throw notFound(`Partition ${partition} not found`);
    await this.files.remove(id, partition);
    const { [partition]: _, ...rest } = d.partitions;
    await this.table.put(id, { ...d, partitions: rest });
  }

  async deletePartitions(ref: string | undefined, id: string): Promise<void> {
    const d = this.require(ref, id);
    await this.files.removeAll(id);
    await this.table.put(id, { ...d, partitions: {} });
  }

  /** Replace the dataset's partitions with rows drawn from a knowledge box. */
  async generate(ref: string | undefined, id: string, kbid: string, perPartition: number) {
    const d = this.require(ref, id);
    const { store } = await this.kbs.open(kbid);
    await store.paragraphs.idle();
    if (d.type === "IMAGE_CLASSIFICATION")
      throw invalid([
        {
          type: "value_error",
          loc: ["path", "dataset_id"],
          msg: "IMAGE_CLASSIFICATION is not supported here: kbox keeps no page images to export",
          input: id,
        },
      ]);
    const columns = COLUMNS[d.type];
    const out: { id: string; size: number; rows: number }[] = [];
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      const pid = `p${String(out.length).padStart(4, "0")}`;
      const size = await this.files.putRows(id, pid, columns, batch, d.format ?? "ARROW");
      out.push({ id: pid, size, rows: batch.length });
      batch = [];
    };
    const rows = datasetRows(store, d.type, d.filter as { labels?: string[] });
    await this.files.removeAll(id);
    for await (const row of rows) {
      batch.push(row);
      if (batch.length >= perPartition) await flush();
    }
    if (batch.length || !out.length) await flush();
    await this.table.put(id, {
      ...d,
      partitions: Object.fromEntries(out.map((p) => [p.id, p.size])),
      generated_from: store.kbid,
    });
    return { partitions: out };
  }
}
