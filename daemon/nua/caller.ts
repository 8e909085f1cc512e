import type { Principal } from "../auth/principal.js";
import { KboxError } from "../errors.js";
import type { NuaClientDoc, Store } from "../store/index.js";
import type { NuaService } from "../zone/nua.js";

/**
 * The understanding client a request acts as: the client of its NUA key, or, for the socket's owner and
 * account keys, the account's local client (made on first use, `local: true`, no tokens limit).
 */
export async function clientOf(p: Principal, nua: NuaService, store: Store, defaultAccount: string): Promise<NuaClientDoc> {
  if (p.via === "nua") {
    const keyId = p.credential?.slice("nua:".length);
    const c = [...store.zone.nuaClients.values()].find((x) => x.key.id === keyId);
    if (!c) throw new KboxError(401, "Invalid or expired NUA key");
    return c;
  }
  // Keys of one knowledge box have no client: the routes' account scope refused them already.
  const account = p.account ?? defaultAccount;
  const found = [...store.zone.nuaClients.values()].find((c) => c.account_id === account && c.local);
  if (found) return found;
  const { client_id } = await nua.create(account, {
    title: "local",
    description: "The account's own understanding client (socket owner and account keys)",
  });
  const c = nua.require(account, client_id);
  await store.zone.nuaClients.put(client_id, { ...c, local: true });
  return { ...c, local: true };
}
