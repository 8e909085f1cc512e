/**
 * Who may call each route, for every mounted route (see matrix.ts): 401 without a key, 403 below the
 * least role, and each scope's 403s and passes. No socket, no port: `app.request` with `c.env.conn`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteDef } from "../../../src/api/route.js";
import { eachRoute, expectStatus, type Matrix, refKind, startMatrix } from "./matrix.js";
import { naming, samplePath } from "./samples.js";

let m: Matrix;
beforeAll(async () => {
  m = await startMatrix();
});
afterAll(async () => m?.t.close());

const ROLES = ["READER", "WRITER", "MANAGER", "OWNER"] as const;
const scoped = (scope: RouteDef["scope"]) => m.routes.filter((d) => d.scope === scope);
/** A malformed body stops a JSON route at 422, after every check of who calls and before the handler. */
const stopper = (def: RouteDef) => (def.bodyKind === "json" ? "{" : undefined);

describe("route matrix: authentication and scope", () => {
  it("has routes of every scope but public mounted", () => {
    for (const scope of ["kb", "account", "authenticated", "owner"] as const)
      expect(scoped(scope).length, scope).toBeGreaterThan(0);
    expect(m.routes.length).toBeGreaterThan(130);
  });

  it("answers 401 to a TCP request without a key, or with an unknown one, on every route", async () => {
    const wrong = await eachRoute(m.routes, async (def) => {
      if (def.scope === "public") return undefined;
      const path = samplePath(def);
      return (
        (await expectStatus(await m.t.request(def.method, path, { tcp: true }), 401)) ??
        (await expectStatus(await m.t.request(def.method, path, { key: "kbox_sa_unknown" }), 401))
      );
    });
    expect(wrong).toEqual([]);
  });

  it("answers 403 to a caller holding every role but the route's least one", async () => {
    const wrong = await eachRoute(m.routes, async (def) => {
      if (def.scope === "public") return undefined;
      // MANAGER in the roles header brings READER with it (the SDK lists knowledge boxes so).
      const roles = ROLES.filter((r) => r !== def.role && !(def.role === "READER" && r === "MANAGER"));
      return expectStatus(await m.t.request(def.method, samplePath(def), { roles: roles.join(";") }), 403);
    });
    expect(wrong).toEqual([]);
  });

  it("answers 403 to a key scoped to another knowledge box on every knowledge-box route", async () => {
    const wrong = await eachRoute(scoped("kb"), async (def) => {
      const { path, body } = naming(def, m.a);
      return expectStatus(await m.t.request(def.method, path, { key: m.keys.ofB, body }), 403);
    });
    expect(wrong).toEqual([]);
  });

  it("narrows what authenticated routes list to the caller's knowledge box", async () => {
    const kbs = await (await m.t.request("GET", "/api/v1/kbs", { key: m.keys.ofA })).json();
    expect(kbs.kbs.map((k: { uuid: string }) => k.uuid)).toEqual([m.a.uuid]);
    const account = await (await m.t.request("GET", "/api/v1/account/local/kbs", { key: m.keys.ofB })).json();
    expect(account.map((k: { id: string }) => k.id)).toEqual([m.b.uuid]);
    const backups = await (await m.t.request("GET", "/api/v1/account/local/backups", { key: m.keys.ofA })).json();
    expect(backups.map((x: { id: string }) => x.id)).toEqual([m.a.backup]);
    const all = await (await m.t.request("GET", "/api/v1/account/local/backups", { key: m.keys.wide })).json();
    expect(all.map((x: { id: string }) => x.id).sort()).toEqual([m.a.backup, m.b.backup].sort());
  });

  it("lets a key scoped to the named knowledge box through, its id in any case", async () => {
    // A box no one created for ids (the route then ends in 404 or 422, with no side effect); box A for
    // slugs and backups, deletions last.
    const routes = scoped("kb").sort((x, y) => Number(x.method === "DELETE") - Number(y.method === "DELETE"));
    const wrong = await eachRoute(routes, async (def) => {
      const byId = refKind(def) === "id" || refKind(def) === "body";
      const { path, body } = naming(def, byId ? m.ghost : m.a, true);
      const res = await m.t.request(def.method, path, { key: byId ? m.keys.ofGhost : m.keys.ofA, body: body ?? stopper(def) });
      return [401, 403].includes(res.status) ? `${res.status} ${await res.text()}` : undefined;
    });
    expect(wrong).toEqual([]);
  });

  it("answers 403 to a key scoped to one knowledge box on account routes, and lets account-wide keys through", async () => {
    const wrong = await eachRoute(scoped("account"), async (def) => {
      const path = samplePath(def);
      const refused = await expectStatus(await m.t.request(def.method, path, { key: m.keys.ofA, body: stopper(def) }), 403);
      if (refused) return refused;
      const res = await m.t.request(def.method, path, { key: m.keys.wide, body: stopper(def) });
      return [401, 403].includes(res.status) ? `account-wide key: ${res.status}` : undefined;
    });
    expect(wrong).toEqual([]);
  });

  it("answers 403 to every TCP caller on socket-owner routes", async () => {
    const wrong = await eachRoute(scoped("owner"), async (def) =>
      expectStatus(await m.t.request(def.method, samplePath(def), { key: m.keys.wide }), 403),
    );
    expect(wrong).toEqual([]);
  });

  it("lets keys scoped to one knowledge box call authenticated routes", async () => {
    const wrong = await eachRoute(scoped("authenticated"), async (def) => {
      const res = await m.t.request(def.method, samplePath(def), { key: m.keys.ofB, body: stopper(def) });
      return [401, 403].includes(res.status) ? `${res.status} ${await res.text()}` : undefined;
    });
    expect(wrong).toEqual([]);
  });

  it("serves the socket's owner on every route (no 401 or 403)", async () => {
    // Stopping the daemon included: the portless app's requestStop does nothing.
    const wrong = await eachRoute(m.routes, async (def) => {
      const { path, body } = naming(def, m.ghost);
      const res = await m.t.request(def.method, path, { body: body ?? stopper(def) });
      return [401, 403].includes(res.status) ? `${res.status}` : undefined;
    });
    expect(wrong).toEqual([]);
  });
});
