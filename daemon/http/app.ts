import { Hono } from "hono";
import type { Services } from "../services.js";
import { type AuthOptions, type HttpEnv, authenticate } from "./auth.js";
import { errorResponse } from "./mount.js";
import * as accounts from "./routes/accounts.js";
import * as daemon from "./routes/daemon.js";
import * as kbs from "./routes/kbs.js";
import * as resources from "./routes/resources.js";

/** One registration function per area; each mounts its routes from src/api. */
const AREAS: ((app: Hono<HttpEnv>, s: Services) => void)[] = [daemon.register, kbs.register, resources.register, accounts.register];

export interface AppOptions {
  trustRolesHeader: boolean;
  log: (msg: string) => void;
}

/** The daemon's HTTP app: authentication, every area's routes, and the wire's error bodies. */
export function createApp(s: Services, opts: AppOptions): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();
  const authOpts: AuthOptions = { auth: s.auth, trustRolesHeader: opts.trustRolesHeader };
  app.use("*", async (c, next) => {
    c.set("principal", authenticate(c, authOpts));
    await next();
  });
  for (const register of AREAS) register(app, s);
  app.notFound(() => Response.json({ detail: "Not Found" }, { status: 404 }));
  app.onError((err) => errorResponse(err, opts.log));
  return app;
}
