import { Readable } from "node:stream";
import type { Hono } from "hono";
import * as api from "../../../src/api/datasets.js";
import { badRequest } from "../../errors.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

async function bytes(req: Request): Promise<Uint8Array> {
  if (!req.body) throw badRequest("The request body must be the partition's bytes");
  return new Uint8Array(await req.arrayBuffer());
}

/** Datasets of an account: records, partitions, and partitions generated from a knowledge box. */
export function register(app: Hono<HttpEnv>, s: Services): void {
  const ds = s.datasets;
  mount(app, api.createDataset, async ({ body, principal }) => ds.create(principal.account, body));
  mount(app, api.createAccountDataset, async ({ params, body }) => ds.create(params.account_id, body));
  mount(app, api.listDatasets, async ({ params }) => ds.list(params.account_id));
  mount(app, api.getDataset, async ({ params }) => ds.get(params.account_id, params.dataset_id));
  mount(app, api.deleteAccountDataset, async ({ params }) => ds.delete(params.account_id, params.dataset_id));
  mount(app, api.deleteDataset, async ({ params, principal }) => ds.delete(principal.account, params.dataset_id));
  mount(app, api.uploadAccountPartition, async ({ params, req }) =>
    ds.upload(params.account_id, params.dataset_id, params.partition_id, await bytes(req)),
  );
  mount(app, api.uploadPartition, async ({ params, req, principal }) =>
    ds.upload(principal.account, params.dataset_id, params.partition_id, await bytes(req)),
  );
  mount(app, api.downloadPartition, async ({ params }) => {
    const { stream, size, format } = ds.download(params.account_id, params.dataset_id, params.partition_id);
    const type = format === "PARQUET" ? "application/vnd.apache.parquet" : "application/vnd.apache.arrow.stream";
    return new Response(Readable.toWeb(stream) as unknown as ReadableStream, {
      headers: { "content-type": type, "content-length": String(size) },
    });
  });
  mount(app, api.deletePartition, async ({ params }) =>
    ds.deletePartition(params.account_id, params.dataset_id, params.partition_id),
  );
  mount(app, api.deletePartitions, async ({ params }) => ds.deletePartitions(params.account_id, params.dataset_id));
  mount(app, api.listDatasetTasks, async ({ params, principal }) => ds.tasks(principal.account, params.dataset_id));
  mount(app, api.startDatasetTask, async ({ params, body, principal }) =>
    ds.startTask(principal.account, params.dataset_id, body.name),
  );
  for (const r of [api.inspectDatasetTask, api.stopDatasetTask, api.deleteDatasetTask])
    mount(app, r, async ({ params, principal }) => ds.task(principal.account, params.dataset_id, params.task_id));
  mount(app, api.generateDataset, async ({ params, body }) =>
    ds.generate(params.account_id, params.dataset_id, body.kb_id, body.rows_per_partition),
  );
}
