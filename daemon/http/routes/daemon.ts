import type { Hono } from "hono";
import * as api from "../../../src/api/daemon.js";
import { PROTOCOL_VERSION } from "../../../src/api/version.js";
import type { Services } from "../../services.js";
import type { HttpEnv } from "../auth.js";
import { mount } from "../mount.js";

export function register(app: Hono<HttpEnv>, s: Services): void {
  const hello = () => ({
    name: "kboxd" as const,
    version: s.info.version,
    protocol: PROTOCOL_VERSION,
    pid: process.pid,
    started: s.info.started,
    data_dir: s.info.dataDir,
    listen: s.info.listen,
  });
  mount(app, api.hello, async () => hello());
  mount(app, api.status, async () => {
    const mem = process.memoryUsage();
    return {
      ...hello(),
      uptime_s: (Date.now() - Date.parse(s.info.started)) / 1000,
      kbs: s.store.kbs.size,
      rss_bytes: mem.rss,
      heap_bytes: mem.heapUsed,
      external_bytes: mem.external,
      cache_bytes: s.store.cacheBytes(),
      allocator: s.settings.allocator,
      extract_workers: s.processing.workers(),
    };
  });
  mount(app, api.shutdown, async () => {
    setImmediate(s.info.requestStop);
    return { stopping: true };
  });
}
