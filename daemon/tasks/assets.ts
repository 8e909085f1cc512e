import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { notFound } from "../errors.js";
import type { DocTable } from "../store/doc-table.js";
import type { KbStore } from "../store/index.js";

/** A file a task produced for a knowledge box (kept in the box's blob folder). */
export interface AssetDoc {
  id: string;
  kbid: string;
  task_id: string;
  name: string;
  content_type: string;
  size: number;
  created: string;
}

const TTL_MS = 3600_000;

/** Task assets: records, files, and signed download URLs (HMAC over kbid, asset and expiry with a per-daemon key). */
export class AssetService {
  private readonly key = randomBytes(32);

  constructor(private readonly table: DocTable<AssetDoc>) {}

  list(kbid: string): AssetDoc[] {
    return [...this.table.values()].filter((a) => a.kbid === kbid).sort((a, b) => b.created.localeCompare(a.created));
  }

  async add(store: KbStore, taskId: string, name: string, contentType: string, data: Buffer): Promise<AssetDoc> {
    const id = randomUUID().replace(/-/g, "");
    const { size } = await store.blobs.write(`assets/${id}`, data);
    const doc: AssetDoc = {
      id,
      kbid: store.kbid,
      task_id: taskId,
      name,
      content_type: contentType,
      size,
      created: new Date().toISOString(),
    };
    await this.table.put(id, doc);
    return doc;
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.key).update(payload).digest("base64url");
  }

  /** A URL path valid for an hour (until the daemon restarts: the key is not kept). */
  signedPath(kbid: string, id: string): string {
    const a = this.table.get(id);
    if (!a || a.kbid !== kbid) throw notFound(`Asset ${id} not found`);
    const payload = `${kbid}.${id}.${Date.now() + TTL_MS}`;
    return `/api/v1/task-assets/${Buffer.from(payload).toString("base64url")}.${this.sign(payload)}`;
  }

  /** The asset a signed token names, or 404 (bad signature, expired, gone). */
  verify(token: string): AssetDoc {
    const [p64, sig] = token.split(".");
    const payload = Buffer.from(p64 ?? "", "base64url").toString();
    const want = Buffer.from(this.sign(payload));
    const got = Buffer.from(sig ?? "");
    const [kbid, id, exp] = payload.split(".");
    const a = this.table.get(id ?? "");
    if (got.length !== want.length || !timingSafeEqual(got, want) || Number(exp) < Date.now() || !a || a.kbid !== kbid)
      throw notFound("Asset not found or link expired");
    return a;
  }

  async dropTask(stores: (kbid: string) => Promise<KbStore>, taskId: string): Promise<void> {
    for (const a of [...this.table.values()].filter((x) => x.task_id === taskId)) {
      await (await stores(a.kbid)).removeBlobs([`assets/${a.id}`]);
      await this.table.delete(a.id);
    }
  }

  async dropKb(kbid: string): Promise<void> {
    for (const a of this.list(kbid)) await this.table.delete(a.id);
  }
}
