import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as find from "../../src/api/find.js";
import * as kbs from "../../src/api/kbs.js";
import * as res from "../../src/api/resources.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { type RemoteZone, startRemoteZone } from "../helpers/zone.js";
import { waitIdle } from "./ingest-helpers.js";

let d: TestDaemon;
let zone: RemoteZone;
let kbid: string;
const env = { KBOX_CREDENTIAL_STORE: "file" };
const push = (...args: string[]) => d.cli(["kb", "push", "notes", "--profile", "rz", ...args], { env });

async function remoteKb(slug: string) {
  return (await zone.d.client.call(kbs.getKbBySlug, { params: { slug } })).uuid;
}
const keyword = async (dd: TestDaemon, id: string, query: string) =>
  Object.values(
    (await dd.client.call(find.find, { params: { kbid: id }, body: { query, features: ["keyword"] } })).resources,
  ).map((r) => (r as { slug: string }).slug);

beforeAll(async () => {
  d = await startTestDaemon({ env: OFFLINE });
  zone = await startRemoteZone("push-zone");
  kbid = (await d.client.call(kbs.createKb, { body: { slug: "notes", title: "Notes" } })).uuid;
  for (let i = 0; i < 5; i++)
    await d.client.call(res.createResource, {
      params: { kbid },
      body: {
        slug: `n${i}`,
        title: `Note ${i}`,
        usermetadata: { classifications: [{ labelset: "topic", label: i % 2 ? "odd" : "even" }] },
        texts: { body: { body: `Note ${i} is about the lighthouse number ${i} and word${i}.` } },
        ...(i === 0
          ? {
              files: {
                doc: {
                  file: {
                    filename: "a.txt",
                    content_type: "text/plain",
                    payload: Buffer.from("attached pelican facts").toString("base64"),
                  },
                },
              },
            }
          : {}),
      },
    });
  await waitIdle(d.client, kbid);
  const login = await d.cli(["auth", "login", "--kind", "account-key", "--zone", zone.url, "--profile", "rz", "--api-key", "-"], {
    stdin: zone.key,
    env,
  });
  expect(login.code, login.stderr).toBe(0);
});
afterAll(async () => {
  await d?.stop();
  await zone?.stop();
});

describe("kbox kb push / pull", () => {
  it("pushes a local box to a zone; find on the zone answers as on the local box", async () => {
    const r = await push("--kb", "team-notes", "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 5, updated: 0, deleted: 0, unchanged: 0, skipped: [] });
    const remote = await remoteKb("team-notes");
    await waitIdle(zone.d.client, remote);
    for (const q of ["lighthouse word3", "pelican"])
      expect((await keyword(zone.d, remote, q)).sort()).toEqual((await keyword(d, kbid, q)).sort());
    expect(await keyword(zone.d, remote, "pelican")).toEqual(["n0"]);
    const n1 = (await zone.d.client.call(res.getResource.bySlug, {
      params: { kbid: remote, rslug: "n1" },
      query: { show: ["basic"] },
    })) as any;
    expect(n1.usermetadata.classifications).toEqual([{ labelset: "topic", label: "odd" }]);
  });

  it("a second push after one edit and one delete sends only those", async () => {
    await d.client.call(res.updateResource.bySlug, {
      params: { kbid, rslug: "n2" },
      body: { texts: { body: { body: "Note 2 now talks about albatross migrations." } } },
    });
    await d.client.call(res.deleteResource.bySlug, { params: { kbid, rslug: "n4" } });
    await waitIdle(d.client, kbid);
    const r = await push("--kb", "team-notes", "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 0, updated: 1, deleted: 1, unchanged: 3 });
    const remote = await remoteKb("team-notes");
    await waitIdle(zone.d.client, remote);
    expect(await keyword(zone.d, remote, "albatross")).toEqual(["n2"]);
    expect(await keyword(zone.d, remote, "word4")).toEqual([]);
    const again = await push("--kb", "team-notes", "--json");
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, updated: 0, deleted: 0, unchanged: 4 });
  });

  it("pulls a zone's box into a new local one", async () => {
    const r = await d.cli(["kb", "pull", "team-notes", "--profile", "rz", "--kb", "copy"], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/4 created/);
    const copy = (await d.client.call(kbs.getKbBySlug, { params: { slug: "copy" } })).uuid;
    await waitIdle(d.client, copy);
    expect(await keyword(d, copy, "albatross")).toEqual(["n2"]);
  });

  it("refuses a push to a profile that is not a zone (usage)", async () => {
    const r = await d.cli(["kb", "push", "notes", "--profile", "local"], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--profile/);
  });
});
