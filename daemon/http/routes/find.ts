import type { Hono } from "hono";
import { toValidationIssues } from "../../../src/api/errors.js";
import * as api from "../../../src/api/find.js";
import { invalid } from "../../errors.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.find, async ({ params, body, principal, signal }) =>
    s.search.find(params.kbid, body ?? {}, { principal, signal }),
  );
  mount(app, api.findGet, async ({ params, query, principal, signal }) => {
    const raw = api.findQueryToBody(query);
    const r = api.FindBody.safeParse(raw);
    if (!r.success) throw invalid(toValidationIssues(r.error, "query", raw));
    return s.search.find(params.kbid, r.data, { principal, signal });
  });
}
