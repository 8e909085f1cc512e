import type { z } from "zod";
import type { ParagraphRow } from "../../daemon/store/paragraphs.js";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as resources from "../../src/api/resources.js";
import { startTestDaemon, type TestDaemon } from "./daemon.js";

/** A paragraph to index for a resource: text, optional vector and row overrides. */
export interface Para {
  field?: string;
  text: string;
  vec?: number[];
  lang?: string;
  kind?: string;
  labels?: string[];
  facets?: string[];
  is_table?: boolean;
  page?: number;
}

/**
 * A daemon with a knowledge box whose resources are created through the API and whose paragraphs
 * are written the way the ingestion queue writes them (ParagraphStore.replaceField), so search is
 * tested independently of extraction and splitting.
 */
export class SearchFixture {
  private constructor(
    readonly d: TestDaemon,
    readonly kbid: string,
  ) {}

  static async start(
    kb: Partial<z.input<typeof kbs.CreateKb>> = {},
    opts: Parameters<typeof startTestDaemon>[0] = {},
  ): Promise<SearchFixture> {
    const d = await startTestDaemon(opts);
    const { uuid } = await d.client.call(kbs.createKb, { body: { slug: "s", ...kb } });
    return new SearchFixture(d, uuid);
  }

  async store() {
    return this.d.daemon.services.store.kb(this.kbid);
  }

  /**
   * Create a resource through the API, let the ingestion queue process it (its title), then index
   * the given paragraphs in fields the resource does not have, so the queue never rewrites them.
   */
  async add(body: z.input<typeof resources.CreateResource>, paras: Para[]): Promise<string> {
    const { uuid } = await this.d.client.call(resources.createResource, { params: { kbid: this.kbid }, body });
    const store = await this.store();
    const until = Date.now() + 20_000;
    while (store.resources.get(uuid)?.metadata.status === "PENDING" && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    await this.index(uuid, paras);
    return uuid;
  }

  async index(rid: string, paras: Para[]): Promise<void> {
    const store = await this.store();
    const vecDim = paras.find((p) => p.vec)?.vec?.length;
    if (vecDim) await store.paragraphs.ensureVectorset("test", vecDim);
    const byField = new Map<string, ParagraphRow[]>();
    const offsets = new Map<string, number>();
    for (const p of paras) {
      const field = p.field ?? "t/body";
      const start = offsets.get(field) ?? 0;
      const end = start + p.text.length;
      offsets.set(field, end + 1);
      const rows = byField.get(field) ?? [];
      rows.push({
        id: `${rid}/${field}/${start}-${end}`,
        rid,
        field,
        field_type: { t: "text", a: "generic", f: "file", u: "link", c: "conversation", k: "key_value" }[field[0]] ?? "text",
        split: "",
        start,
        end,
        page: p.page ?? 0,
        idx: rows.length,
        kind: p.kind ?? "TEXT",
        is_table: p.is_table ?? false,
        labels: p.labels ?? [],
        facets: p.facets ?? [],
        text: p.text,
        lang: p.lang ?? "en",
        path: "",
        created: Date.now(),
        modified: Date.now(),
        hidden: false,
        groups: [],
        hash: p.text,
        vectors: p.vec ? { test: p.vec } : undefined,
      });
      byField.set(field, rows);
    }
    for (const [field, rows] of byField) await store.paragraphs.replaceField(rid, field, rows);
  }

  find(body: z.input<typeof find.FindBody>) {
    return this.d.client.call(find.find, { params: { kbid: this.kbid }, body });
  }

  /** Paragraph texts of a find response, best first. */
  async texts(body: z.input<typeof find.FindBody>): Promise<string[]> {
    const r = await this.find(body);
    const byId = new Map<string, string>();
    for (const res of Object.values(r.resources))
      for (const f of Object.values(res.fields)) for (const p of Object.values(f.paragraphs)) byId.set(p.id, p.text);
    return r.best_matches.map((id) => byId.get(id) ?? "?");
  }

  stop() {
    return this.d.stop();
  }
}
