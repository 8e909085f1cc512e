import type { Nuclia, WritableKnowledgeBox } from "@nuclia/core";
import { firstValueFrom } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RemoteZone, startRemoteZone, zoneSdk } from "../helpers/zone.js";

// The upstream JavaScript SDK's ActivityMonitor, unchanged, in zone mode against kboxd.
let z: RemoteZone;
let nuclia: Nuclia;
let kb: WritableKnowledgeBox;
const month = new Date().toISOString().slice(0, 7);
const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();

beforeAll(async () => {
  z = await startRemoteZone("europe-7");
  nuclia = zoneSdk(z.url, { zone: z.name, account: z.account.slug, accountId: z.account.id, apiKey: z.key });
  kb = await firstValueFrom(
    nuclia.db.createKnowledgeBox(z.account.id, { slug: "watched", title: "Watched", zone: z.name } as never, z.name),
  );
  await firstValueFrom(
    kb.createResource({
      title: "Cats",
      texts: { body: { body: "Cats sleep between 12 and 16 hours a day. Cats purr when content." } },
    } as never),
  );
  await z.d.daemon.services.processing.idle();
  await firstValueFrom(kb.find("cats sleep", ["keyword" as never]));
  await firstValueFrom(kb.find("purr", ["keyword" as never]));
  await firstValueFrom(kb.ask("How long do cats sleep?", undefined, ["keyword"] as never, { synchronous: true }));
});
afterAll(async () => {
  await z?.stop();
});

describe("@nuclia/core ActivityMonitor in zone mode", () => {
  it("reads search metrics and the months with activity", async () => {
    const m = kb.activityMonitor;
    const points = await firstValueFrom(m.getSearchMetrics(hourAgo(), undefined, "day" as never));
    expect(points.reduce((a, p) => a + p.search, 0)).toBe(2);
    expect(points.reduce((a, p) => a + p.chat, 0)).toBe(1);
    expect(await firstValueFrom(m.getMonthsWithActivity("ask" as never))).toEqual({ downloads: [month] });
    const built = (nuclia as unknown as { builtUrls: string[] }).builtUrls;
    expect(built.some((u) => u.startsWith(`https://europe-7.rag.kbox.test/api/v1/kb/${kb.id}/activity/metrics?from=`))).toBe(
      true,
    );
  });

  it("requests a download, follows its status and reads the file", async () => {
    const m = kb.activityMonitor;
    const req = await firstValueFrom(
      m.createActivityLogDownload(
        "search" as never,
        { year_month: month, filters: {}, show: ["question"] },
        "application/x-ndjson",
      ),
    );
    expect(req).toMatchObject({ event_type: "search", download_format: "application/x-ndjson", kb_id: kb.id });
    let status = req;
    for (let i = 0; i < 100 && !status.download_url; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = await firstValueFrom(m.getDownloadStatus(req.request_id));
    }
    expect(status.download_url).toContain(`/activity/download_file/${req.request_id}`);
    const file = await fetch(String(status.download_url), { headers: { "x-nuclia-serviceaccount": `Bearer ${z.key}` } });
    const rows = (await file.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { question: string });
    expect(rows.map((r) => r.question)).toEqual(["cats sleep", "purr"]);
  });

  it("queries answers by quality and reads their scores over time", async () => {
    const m = kb.activityMonitor;
    let res = await firstValueFrom(m.queryRemiScores({ month }));
    for (let i = 0; i < 50 && !res.data[0]?.remi; i++) {
      await new Promise((r) => setTimeout(r, 50));
      res = await firstValueFrom(m.queryRemiScores({ month }));
    }
    expect(res.has_more).toBe(false);
    expect(res.data).toHaveLength(1);
    expect(res.data[0]).toMatchObject({ question: "How long do cats sleep?" });
    expect(res.data[0].remi?.groundedness.length).toBeGreaterThan(0);
    const full = await firstValueFrom(m.getFullContexts(res.data[0].id));
    expect(full.context.some((c) => c.text.includes("Cats sleep"))).toBe(true);
    const scores = await firstValueFrom(m.getRemiScores(hourAgo()));
    expect(scores[0].metrics.map((x) => x.name)).toEqual(["answer_relevance", "context_relevance", "groundedness"]);
    const good = await firstValueFrom(m.queryRemiScores({ month, status: "SUCCESS" }));
    expect(good.data).toHaveLength(1);
    const none = await firstValueFrom(m.queryRemiScores({ month, status: "ERROR" }));
    expect(none.data).toEqual([]);
  });
});
