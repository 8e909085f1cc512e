import type { Hono } from "hono";
import * as api from "../../../src/api/labelsets.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.listLabelsets, async ({ params }) => s.labelsets.list(params.kbid));
  mount(app, api.setLabelset, async ({ params, body }) => {
    await s.labelsets.set(params.kbid, params.labelset, body);
    return {};
  });
  mount(app, api.getLabelset, async ({ params }) => s.labelsets.get(params.kbid, params.labelset));
  mount(app, api.deleteLabelset, async ({ params }) => {
    await s.labelsets.delete(params.kbid, params.labelset);
    return {};
  });
}
