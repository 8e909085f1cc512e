import type { Role } from "../../src/api/route.js";
import { isJwt } from "../auth/jwt.js";
import { OWNER, type Principal } from "../auth/principal.js";
import type { AuthService } from "../auth/service.js";
import { PAT_PREFIX, type TokenService } from "../auth/tokens.js";
import type { UserDoc } from "../store/index.js";
import type { AccountService } from "./accounts.js";
import { NUA_PREFIX, type NuaService } from "./nua.js";
import type { UserService } from "./users.js";

const ALL: Role[] = ["READER", "WRITER", "MANAGER", "OWNER"];

/** Turns a presented secret (key, personal token, NUA key, signed token) into who is calling. */
export class Credentials {
  constructor(
    private readonly d: {
      auth: AuthService;
      tokens: TokenService;
      users: UserService;
      nua: NuaService;
      accounts: AccountService;
    },
  ) {}

  /** The socket's owner: every role, every account, acting as the ROOT user. */
  owner(): Principal {
    return { ...OWNER, user: this.d.users.root.id };
  }

  /** The principal a secret stands for; undefined when it is unknown, expired, revoked or forged. */
  resolve(token: string): Principal | undefined {
    if (token.startsWith(PAT_PREFIX)) return this.personal(token);
    if (token.startsWith(NUA_PREFIX)) return this.nuaKey(token);
    if (isJwt(token)) return this.signed(token);
    return this.d.auth.authenticate(token);
  }

  /** A user's principal in one account (or, for ROOT without one, every account). */
  userPrincipal(u: UserDoc, account: string | undefined, credential: string): Principal {
    if (u.type === "ROOT") return { roles: new Set(ALL), account, via: "user", user: u.id, credential };
    const acc = account ?? Object.keys(u.accounts)[0] ?? this.d.accounts.default.id;
    const owner = u.accounts[acc] === "AOWNER";
    return { roles: new Set(owner ? ALL : []), account: acc, kbRoles: u.kbs, via: "user", user: u.id, credential };
  }

  private personal(token: string): Principal | undefined {
    const pat = this.d.tokens.pat(token);
    const u = pat && this.d.users.get(pat.user_id);
    if (!pat || !u) return undefined;
    return this.userPrincipal(u, pat.account_id, `pat:${pat.id}`);
  }

  private nuaKey(token: string): Principal | undefined {
    const c = this.d.nua.byKey(token);
    if (!c) return undefined;
    const manage = c.allow_kb_management;
    return {
      roles: new Set(manage ? ALL : ["READER"]),
      account: c.account_id,
      via: "nua",
      credential: `nua:${c.key.id}`,
      ...(manage ? {} : { nuaOnly: true }),
    };
  }

  private signed(token: string): Principal | undefined {
    const c = this.d.tokens.verify(token);
    if (!c || !this.parentAlive(c.parent)) return undefined;
    return {
      roles: new Set(c.roles.filter((r): r is Role => (ALL as string[]).includes(r))),
      kbid: c.kb,
      account: c.acc,
      via: "token",
      credential: c.parent,
      ...(c.groups ? { securityGroups: c.groups } : {}),
      ...(c.path ? { path: c.path } : {}),
      ...(c.agent_session ? { agentSession: c.agent_session } : {}),
    };
  }

  /** Tokens die with the credential that minted them. */
  private parentAlive(parent: string): boolean {
    const [kind, id] = [parent.slice(0, parent.indexOf(":")), parent.slice(parent.indexOf(":") + 1)];
    if (parent === "socket") return true;
    if (kind === "sa") return this.d.auth.keyAlive(id);
    if (kind === "pat") return this.d.tokens.patAlive(id);
    if (kind === "nua") return this.d.nua.keyAlive(id);
    return false;
  }
}
