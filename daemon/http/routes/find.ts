import type { Hono } from "hono";
import * as api from "../../../src/api/find.js";
import { searchMembers } from "../../activity/members.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  // The GET form carries the same body as query parameters; mount turns them into it.
  mount(app, { post: api.find, get: api.findGet }, async (i) =>
    s.activity.track(
      i.params.kbid,
      "search",
      i,
      () => s.search.find(i.params.kbid, i.body ?? {}, { principal: i.principal, signal: i.signal }),
      (r, ms) => searchMembers(i.body, r, ms),
    ),
  );
}
