import type { Hono } from "hono";
import type { FindBody } from "../../../src/api/find.js";
import * as api from "../../../src/api/search.js";
import { searchMembers } from "../../activity/members.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  // The GET form carries the same body as query parameters; mount turns them into it.
  mount(app, { post: api.search, get: api.searchGet }, async (i) =>
    s.activity.track(
      i.params.kbid,
      "search",
      i,
      () => s.catalog.searchKb(i.params.kbid, i.body ?? {}),
      (r, ms) => ({
        ...searchMembers(i.body as FindBody, undefined, ms),
        resources_count: Object.keys((r as { resources?: object }).resources ?? {}).length,
      }),
    ),
  );
  mount(app, api.suggest, async (i) =>
    s.activity.track(
      i.params.kbid,
      "suggest",
      i,
      () => s.catalog.suggest(i.params.kbid, i.query),
      (_r, ms) => ({
        question: i.query.query ?? "",
        retrieval_time: ms / 1000,
      }),
    ),
  );
}
