import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as kbs from "../../src/api/kbs.js";
import { OFFLINE, startTestDaemon, type TestDaemon } from "../helpers/daemon.js";
import { rawCall } from "../helpers/raw.js";

let d: TestDaemon;
beforeAll(async () => {
  d = await startTestDaemon({ env: { ...OFFLINE, KBOX_ACTIVITY_RETENTION_MONTHS: "2" } });
});
afterAll(async () => {
  await d?.stop();
});

describe("activity retention and switch", () => {
  it("drops monthly partitions older than the retention, and keeps the recent ones", async () => {
    const kbid = (await d.client.call(kbs.createKb, { body: { slug: "kept" } })).uuid;
    expect((await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/find`, { query: "x" })).status).toBe(200);
    const months = async () => (await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/activity/search/months`)).json;
    const month = new Date().toISOString().slice(0, 7);
    expect(await months()).toEqual({ downloads: [month] });
    const now = new Date();
    // Next month: this month is within the last two, kept.
    await d.daemon.services.activity.applyRetention(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15)));
    expect(await months()).toEqual({ downloads: [month] });
    // Two months on: this month is past the retention, dropped.
    await d.daemon.services.activity.applyRetention(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 15)));
    expect(await months()).toEqual({ downloads: [] });
  });

  it("records nothing while recording is off (KBOX_ACTIVITY=0)", async () => {
    const kbid = (await d.client.call(kbs.createKb, { body: { slug: "quiet" } })).uuid;
    d.daemon.services.settings.activity.record = false;
    try {
      expect((await rawCall(d.client, "POST", `/api/v1/kb/${kbid}/find`, { query: "x" })).status).toBe(200);
    } finally {
      d.daemon.services.settings.activity.record = true;
    }
    expect((await rawCall(d.client, "GET", `/api/v1/kb/${kbid}/activity/search/months`)).json).toEqual({ downloads: [] });
  });
});
