/**
 * Scopes beyond what the route matrix reaches with today's keys: a route definition that contradicts its
 * path, accounts (keys get one with issue 19's accounts), public routes, and the socket owner.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { OWNER, type Principal } from "../../../daemon/auth/service.js";
import { mount } from "../../../daemon/http/mount.js";
import { authorize, authorizeKb } from "../../../daemon/http/scope.js";
import { route } from "../../../src/api/route.js";
import { type PortlessApp, startPortlessApp } from "../../helpers/app.js";

const forbidden = expect.objectContaining({ status: 403 });
const key = (p: Partial<Principal>): Principal => ({
  roles: new Set(["READER", "WRITER", "MANAGER", "OWNER"]),
  via: "key",
  ...p,
});
const resolvers = {
  slug: (s: string) => `kb-of-${s}`,
  backup: (id: string) => `kb-of-${id}`,
  account: (ref: string) => ref,
  kb: () => undefined,
};
const unreachable = () => {
  throw new Error("resolved for a caller that is not scoped");
};

describe("route definitions", () => {
  const base = { method: "GET", summary: "t", role: "READER" } as const;

  it("take the kb scope from a knowledge-box path parameter, and refuse another scope there", () => {
    expect(route({ ...base, path: "/x/:kb_uuid/y" })).toMatchObject({ scope: "kb", kb: { param: "kb_uuid", as: "id" } });
    expect(() => route({ ...base, path: "/x/:kbid", scope: "account" })).toThrow(/"kb" scope/);
  });

  it("must declare a scope when the path names no knowledge box", () => {
    expect(() => route({ ...base, path: "/x" })).toThrow(/declare its scope/);
    expect(route({ ...base, path: "/x", kb: { body: "kb_id" } })).toMatchObject({ scope: "kb" });
    expect(() => route({ ...base, path: "/x", kb: { param: "slug", as: "slug" } })).toThrow(/no :slug/);
  });

  it("need a role unless public, and fromQuery exactly when the body travels as query parameters", () => {
    expect(route({ method: "GET", path: "/v", scope: "public", summary: "t" }).role).toBeNull();
    expect(() => route({ method: "GET", path: "/v", scope: "account", summary: "t" })).toThrow(/only a public route/);
    expect(() => route({ ...base, path: "/x/:kbid", body: z.object({}), bodyKind: "query" })).toThrow(/fromQuery/);
  });
});

describe("authorize", () => {
  const accountKbs = route({ method: "GET", summary: "t", role: "READER", path: "/a/:account_id/kbs", scope: "account" });
  const accountKb = route({ method: "GET", summary: "t", role: "READER", path: "/a/:account_id/kb/:kb_id" });

  it("checks the path's account against the caller's, when the caller has one", () => {
    expect(() => authorize(accountKbs, key({ account: "acme" }), { account_id: "acme" }, "/", resolvers)).not.toThrow();
    expect(() => authorize(accountKbs, key({ account: "acme" }), { account_id: "other" }, "/", resolvers)).toThrow(forbidden);
    expect(() => authorize(accountKb, key({ account: "acme" }), { account_id: "other", kb_id: "k" }, "/", resolvers)).toThrow(
      forbidden,
    );
    // The socket's owner (no account of its own) reaches every account.
    expect(() => authorize(accountKbs, OWNER, { account_id: "anything" }, "/", resolvers)).not.toThrow();
  });

  it("compares knowledge-box ids in any case, and resolves other references only for a scoped caller", () => {
    const kbid = "0f0f0f0f-aaaa-4000-8000-00000000000a";
    expect(() =>
      authorize(accountKb, key({ kbid }), { account_id: "a", kb_id: kbid.toUpperCase() }, "/", resolvers),
    ).not.toThrow();
    expect(() => authorize(accountKb, key({ kbid }), { account_id: "a", kb_id: "*" }, "/", resolvers)).toThrow(forbidden);
    const bySlug = route({ method: "GET", summary: "t", role: "READER", path: "/s/:slug", kb: { param: "slug", as: "slug" } });
    expect(() => authorizeKb(bySlug, key({ kbid: "kb-of-mine" }), { slug: "mine" }, undefined, resolvers)).not.toThrow();
    expect(() => authorizeKb(bySlug, key({ kbid: "kb-of-mine" }), { slug: "theirs" }, undefined, resolvers)).toThrow(forbidden);
    const never = { slug: unreachable, backup: unreachable, account: unreachable, kb: unreachable };
    expect(() => authorizeKb(bySlug, OWNER, { slug: "x" }, undefined, never)).not.toThrow();
    const inBody = route({
      method: "POST",
      summary: "t",
      role: "READER",
      path: "/b",
      kb: { body: "kb_id" },
      body: z.object({ kb_id: z.string() }),
    });
    expect(() => authorizeKb(inBody, key({ kbid }), {}, { kb_id: kbid.toUpperCase() }, resolvers)).not.toThrow();
    expect(() => authorizeKb(inBody, key({ kbid }), {}, { kb_id: "other" }, resolvers)).toThrow(forbidden);
  });
});

describe("public and socket-owner routes", () => {
  let t: PortlessApp;
  const versions = route({ method: "GET", path: "/t/versions", scope: "public", summary: "t" });
  const mine = route({ method: "GET", path: "/t/mine", scope: "owner", role: "OWNER", summary: "t" });
  beforeAll(async () => {
    t = await startPortlessApp({
      areas: [
        (app) => {
          mount(app, versions, async ({ principal }) => ({ via: principal.via }));
          mount(app, mine, async ({ principal }) => ({ via: principal.via }));
        },
      ],
    });
  });
  afterAll(async () => t?.close());

  it("serves a public route to anyone over TCP, without authenticating", async () => {
    const res = await t.request("GET", "/t/versions", { tcp: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ via: "anonymous" });
    expect((await t.request("GET", "/t/versions", { key: "kbox_sa_bad" })).status).toBe(200);
    // Everything else still needs a key, an unknown path included.
    expect((await t.request("GET", "/t/mine", { tcp: true })).status).toBe(401);
    expect((await t.request("GET", "/t/nowhere", { tcp: true })).status).toBe(401);
  });

  it("serves a socket-owner route on the socket only", async () => {
    expect(await (await t.request("GET", "/t/mine")).json()).toEqual({ via: "socket" });
    expect((await t.request("GET", "/t/mine", { key: await t.key("SOWNER") })).status).toBe(403);
  });
});
