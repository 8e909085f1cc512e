import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Session } from "../../../daemon/sync/cloud/oauth.js";
import type { Tokens } from "../../../daemon/sync/cloud/types.js";

const policy = { allowPrivate: true, allow: [] };
let url: string;
let valid = "fresh-1";
const seen: string[] = [];
const server = createServer((req, res) => {
  seen.push(req.headers.authorization ?? "");
  res.writeHead(req.headers.authorization === `Bearer ${valid}` ? 200 : 401).end("{}");
});

beforeAll(async () => {
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

function session(tokens: Tokens) {
  const saved: Tokens[] = [];
  let n = 0;
  const s = new Session(
    tokens,
    async (t) => {
      n++;
      valid = `fresh-${n + 1}`;
      return { access_token: valid, refresh_token: t.refresh_token, expires_at: Date.now() + 3600_000 };
    },
    async (t) => void saved.push(t),
    policy,
  );
  return { s, saved, renewals: () => n };
}

describe("Session: access tokens renewed before expiry and after a 401", () => {
  it("renews a token about to expire before calling, and saves the new one", async () => {
    valid = "fresh-1";
    const { s, saved, renewals } = session({ access_token: "old", refresh_token: "r", expires_at: Date.now() + 10_000 });
    seen.length = 0;
    expect((await s.call(url)).status).toBe(200);
    expect(renewals()).toBe(1);
    expect(seen).toEqual(["Bearer fresh-2"]);
    expect(saved.map((t) => t.access_token)).toEqual(["fresh-2"]);
  });

  it("renews once after a 401 and retries; concurrent calls share the renewal", async () => {
    valid = "fresh-1";
    const { s, renewals } = session({ access_token: "revoked", refresh_token: "r" });
    const answers = await Promise.all([s.call(url), s.call(url), s.call(url)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(renewals()).toBe(1);
  });
});
