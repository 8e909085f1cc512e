import { AuthService } from "./auth/service.js";
import { KbService } from "./kbs/service.js";
import { ResourceService } from "./resources/service.js";
import { Store } from "./store/index.js";

/** Facts about the running daemon that routes report. */
export interface DaemonInfo {
  version: string;
  started: string;
  dataDir: string;
  listen: string[];
  /** Ask the daemon to drain and stop. */
  requestStop: () => void;
}

/** Every service of the daemon, built once at start; routes receive this. */
export interface Services {
  store: Store;
  kbs: KbService;
  resources: ResourceService;
  auth: AuthService;
  info: DaemonInfo;
  /** Work to finish before the daemon stops (queues, watchers), in registration order. */
  onClose: (fn: () => Promise<void>) => void;
  close: () => Promise<void>;
}

/** Open the data dir and wire the services together. */
export async function createServices(info: DaemonInfo): Promise<Services> {
  const store = await Store.open(info.dataDir);
  const kbs = new KbService(store);
  const resources = new ResourceService(kbs);
  const auth = new AuthService(store);
  const closers: (() => Promise<void>)[] = [];
  return {
    store,
    kbs,
    resources,
    auth,
    info,
    onClose: (fn) => closers.push(fn),
    close: async () => {
      for (const fn of closers) await fn().catch(() => undefined);
      await store.close();
    },
  };
}
