import type { Hono } from "hono";
import * as api from "../../../src/api/find.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  // The GET form carries the same body as query parameters; mount turns them into it.
  mount(app, { post: api.find, get: api.findGet }, async ({ params, body, principal, signal }) =>
    s.search.find(params.kbid, body ?? {}, { principal, signal }),
  );
}
