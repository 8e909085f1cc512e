/**
 * What each mounted route answers to bad input (see matrix.ts): 404 for a knowledge box that does not
 * exist, 405 for a method its path lacks, 413 over the JSON limit, 422 for a malformed body or path
 * parameter, located where the problem is. No socket, no port.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathParams, type RouteDef } from "../../../src/api/route.js";
import { apiRoutes, BODY_LIMIT, eachRoute, expectStatus, label, type Matrix, startMatrix } from "./matrix.js";
import { MISSING_KB, naming, PARAM_SAMPLES, requestSample, sampleBody, samplePath } from "./samples.js";

let m: Matrix;
beforeAll(async () => {
  m = await startMatrix();
});
afterAll(async () => m?.t.close());

const json = (def: RouteDef) => m.routes.filter((d) => d.bodyKind === "json").includes(def);
const detailOf = async (res: Response) => ((await res.json()) as { detail: { loc: (string | number)[] }[] }).detail;

describe("route matrix: input", () => {
  it("mounts every route src/api defines (a HEAD route is answered by the GET on its path)", async () => {
    const mounted = new Set(m.routes.map(label));
    const missing = (await apiRoutes())
      .filter((d) => !mounted.has(label(d)) && !(d.method === "HEAD" && mounted.has(`GET ${d.path}`)))
      .map(label);
    expect(missing).toEqual([]);
  });

  it("has a sample for every path parameter, and the samples parse", async () => {
    const wrong = await eachRoute(m.routes, async (def) => {
      const r = def.params.safeParse(Object.fromEntries(pathParams(def.path).map((p) => [p, PARAM_SAMPLES[p]])));
      return r.success ? undefined : r.error.message;
    });
    expect(wrong).toEqual([]);
  });

  it("answers 404 for a knowledge box that does not exist, to the owner and to a caller with just the least role", async () => {
    const wrong = await eachRoute(
      m.routes.filter((d) => d.scope === "kb"),
      async (def) => {
        const extra = requestSample(def);
        const sample = extra && "body" in extra ? extra : sampleBody(def);
        if (!sample) return "no sample body: give the body's schema defaults, or a hint or a request sample in samples.ts";
        const named = naming(def, { uuid: MISSING_KB, slug: "no-such-kb", backup: PARAM_SAMPLES.backup_id });
        const opts = { body: named.body ?? sample.body, headers: extra?.headers };
        const path = extra?.query ? `${named.path}?${extra.query}` : named.path;
        return (
          (await expectStatus(await m.t.request(def.method, path, opts), 404)) ??
          (await expectStatus(await m.t.request(def.method, path, { ...opts, roles: def.role ?? "" }), 404))
        );
      },
    );
    expect(wrong).toEqual([]);
  });

  it("answers 404 to a path no route has, and 405 with Allow to a method a path lacks", async () => {
    expect((await m.t.request("GET", "/api/v1/nowhere")).status).toBe(404);
    const paths = [...new Set(m.routes.map((d) => samplePath(d)))];
    const wrong: string[] = [];
    for (const path of paths) {
      const allowed = new Set(m.routes.filter((d) => samplePath(d) === path).map((d) => d.method));
      const method = ["DELETE", "PUT", "PATCH", "POST", "GET"].find((x) => !allowed.has(x as RouteDef["method"]));
      if (!method) continue;
      const res = await m.t.request(method, path, { body: method === "GET" ? undefined : "{}" });
      const allow = res.headers.get("allow") ?? "";
      if (res.status !== 405) wrong.push(`${method} ${path}: ${res.status}`);
      else if (![...allowed].every((x) => allow.includes(x))) wrong.push(`${method} ${path}: Allow ${allow}`);
    }
    expect(wrong).toEqual([]);
    expect(paths.length).toBeGreaterThan(80);
  });

  it("answers 413 to a JSON body over the limit, by its content-length or by its size", async () => {
    const big = JSON.stringify({ padding: "x".repeat(2 * BODY_LIMIT) });
    const wrong = await eachRoute(m.routes.filter(json), async (def) => {
      const path = samplePath(def);
      const claimed = { "content-length": String(10 * BODY_LIMIT) };
      return (
        (await expectStatus(await m.t.request(def.method, path, { body: "{}", headers: claimed }), 413)) ??
        (await expectStatus(await m.t.request(def.method, path, { body: big }), 413))
      );
    });
    expect(wrong).toEqual([]);
  });

  it("answers 422 located in the body to malformed JSON, and to JSON the schema refuses", async () => {
    const wrong = await eachRoute(m.routes.filter(json), async (def) => {
      const path = samplePath(def);
      for (const body of ["{", '{"a":}', "[1,2"]) {
        const res = await m.t.request(def.method, path, { body });
        if (res.status !== 422) return `${JSON.stringify(body)}: ${res.status}`;
        if ((await detailOf(res))[0]?.loc[0] !== "body") return `${JSON.stringify(body)}: not located in the body`;
      }
      if (def.body.safeParse(42).success) return undefined;
      const res = await m.t.request(def.method, path, { body: "42" });
      return res.status === 422 && (await detailOf(res))[0]?.loc[0] === "body" ? undefined : `42: ${res.status}`;
    });
    expect(wrong).toEqual([]);
  });

  it("answers 422 located at a path parameter whose schema refuses its value", async () => {
    let checked = 0;
    const wrong = await eachRoute(m.routes, async (def) => {
      for (const p of pathParams(def.path)) {
        const bad = "not a valid value";
        const params = Object.fromEntries(pathParams(def.path).map((q) => [q, q === p ? bad : PARAM_SAMPLES[q]]));
        if (def.params.safeParse(params).success) continue;
        checked++;
        const res = await m.t.request(def.method, samplePath(def, { [p]: bad }), { body: json(def) ? "{}" : undefined });
        if (res.status !== 422) return `:${p}: ${res.status}`;
        const loc = (await detailOf(res)).map((i) => i.loc.join("."));
        if (!loc.includes(`path.${p}`)) return `:${p}: located at ${loc.join(", ")}`;
      }
      return undefined;
    });
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
