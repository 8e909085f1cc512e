import type { Hono } from "hono";
import * as api from "../../../src/api/processing.js";
import { processingStatus } from "../../ingest/status.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.processingStatus, async ({ params, query }) => processingStatus(s.kbs, s.processing, params.kbid, query));
}
