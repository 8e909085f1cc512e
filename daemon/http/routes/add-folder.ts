import type { Hono } from "hono";
import * as api from "../../../src/api/add-folder.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  mount(app, api.addFolder, async ({ params, body, principal, signal }) =>
    s.folderAdd.add(params.kbid, body, { owner: principal.via === "socket" }, signal),
  );
}
