import { type KnowledgeBox, Nuclia } from "@nuclia/core";
import { firstValueFrom, lastValueFrom, toArray } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { seedKb } from "../helpers/seed-kb.js";

// The upstream JavaScript SDK, unchanged, asking the daemon in standalone mode.
let d: TestDaemon;
let kb: KnowledgeBox;
let rids: Record<string, string>;
let paragraphIds: Set<string>;

beforeAll(async () => {
  d = await startTestDaemon({ listen: "127.0.0.1:0", trustRolesHeader: true, env: OFFLINE });
  const seeded = await seedKb(d, "sdk-ask");
  rids = seeded.rids;
  const store = await d.daemon.services.store.kb(seeded.kbid);
  paragraphIds = new Set((await store.paragraphs.ofResources(Object.values(rids), ["id"])).map((r) => r.id));
  const nuclia = new Nuclia({
    backend: `${d.url}/api`,
    standalone: true,
    zone: "local",
    account: "local",
    knowledgeBox: seeded.kbid,
  } as ConstructorParameters<typeof Nuclia>[0]);
  kb = await firstValueFrom(nuclia.db.getKnowledgeBox("local", seeded.kbid));
});
afterAll(async () => d?.stop());

type Answer = {
  type: string;
  text: string;
  incomplete?: boolean;
  citations?: Record<string, [number, number][]>;
  sources?: { best_matches: string[]; resources: Record<string, unknown> };
  metadata?: unknown;
};

describe("@nuclia/core ask against kboxd", () => {
  it("gets a streamed answer with retrieval results and citations pointing at real paragraphs", async () => {
    const answers = (await lastValueFrom(
      kb.ask("Who writes the release notes?", undefined, ["keyword"] as never, { citations: true }).pipe(toArray()),
    )) as Answer[];
    expect(answers.length).toBeGreaterThan(1);
    expect(answers.some((a) => a.incomplete)).toBe(true);
    const final = answers.at(-1) as Answer;
    expect(final.type).toBe("answer");
    expect(final.incomplete).toBe(false);
    expect(final.text).toContain("Maria Lopez");
    expect(final.sources?.resources[rids.shipping]).toBeTruthy();
    const cited = Object.keys(final.citations ?? {});
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) expect(paragraphIds.has(id)).toBe(true);
    const [start, end] = (final.citations ?? {})[cited[0]][0];
    expect(final.text.slice(start, end)).toContain("Maria Lopez");
  });

  it("gets a synchronous answer", async () => {
    const a = (await lastValueFrom(
      kb.ask("Where is the office located?", undefined, ["keyword"] as never, { synchronous: true, citations: true }),
    )) as Answer;
    expect(a.type).toBe("answer");
    expect(a.text).toContain("Lisbon");
    expect(a.sources?.best_matches.length).toBeGreaterThan(0);
    for (const id of a.sources?.best_matches ?? []) expect(paragraphIds.has(id)).toBe(true);
    for (const id of Object.keys(a.citations ?? {})) expect(paragraphIds.has(id)).toBe(true);
    expect(Object.keys(a.citations ?? {}).some((id) => id.startsWith(rids.office))).toBe(true);
  });
});
