import type { Hono } from "hono";
import * as api from "../../../src/api/activity.js";
import { activityMetrics, queryActivity, remiEvent, remiQuery, remiScores } from "../../activity/queries.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

/** Activity logs, their downloads and metrics, and answer-quality scores (daemon/activity). */
export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.activityMetrics, async ({ params, query }) => activityMetrics(s.activity, params.kbid, query));
  mount(app, api.activityMonths, async ({ params }) => ({
    downloads: await (await s.activity.of(params.kbid)).months(params.event_type),
  }));
  mount(app, api.queryActivity, async ({ params, body, setHeader }) => {
    const { rows, hasMore } = await queryActivity(s.activity, params.kbid, params.event_type, body);
    setHeader("has-more", String(hasMore));
    setHeader("Access-Control-Expose-Headers", "has-more");
    return (async function* () {
      yield* rows;
    })();
  });
  mount(app, api.requestActivityDownload, async ({ params, headers, body, req }) =>
    s.activityDownloads.request(params.kbid, params.event_type, headers.accept, body, new URL(req.url).origin),
  );
  mount(app, api.activityDownloadStatus, async ({ params }) => s.activityDownloads.status(params.kbid, params.request_id));
  mount(app, api.activityDownloadFile, async ({ params }) => s.activityDownloads.file(params.kbid, params.request_id));
  mount(app, api.remiQuery, async ({ params, body }) => remiQuery(s.activity, params.kbid, body));
  mount(app, api.remiEvent, async ({ params }) => remiEvent(s.activity, params.kbid, params.event_id));
  mount(app, api.remiScores, async ({ params, query }) => remiScores(s.activity, params.kbid, query));
}
