import { randomUUID } from "node:crypto";
import { KboxError, notFound } from "../errors.js";
import type { AccountRole, KbMemberRole, Store, UserDoc } from "../store/index.js";

/** A member of a knowledge box or an account, as the management API lists it. */
export interface Member {
  id: string;
  role: string;
  email: string;
  name: string;
}

/** Users of the zone and their roles on accounts and knowledge boxes. */
export class UserService {
  private constructor(private readonly store: Store) {}

  /** Open the users; the first start makes the ROOT user, who the Unix socket's owner acts as. */
  static async open(store: Store, owner: { name: string }): Promise<UserService> {
    const s = new UserService(store);
    if (!s.all().some((u) => u.type === "ROOT")) {
      const id = randomUUID();
      await store.zone.users.put(id, {
        id,
        email: `${owner.name}@localhost`,
        name: owner.name,
        created: new Date().toISOString(),
        type: "ROOT",
        accounts: {},
        kbs: {},
      });
    }
    return s;
  }

  all(): UserDoc[] {
    return [...this.store.zone.users.values()].sort((a, b) => a.created.localeCompare(b.created));
  }

  get root(): UserDoc {
    const u = this.all().find((x) => x.type === "ROOT");
    if (!u) throw new Error("no ROOT user");
    return u;
  }

  get(id: string): UserDoc | undefined {
    return this.store.zone.users.get(id);
  }

  require(id: string): UserDoc {
    const u = this.get(id);
    if (!u) throw notFound(`User ${id} not found`);
    return u;
  }

  byEmail(email: string): UserDoc | undefined {
    const e = email.toLowerCase();
    return this.all().find((u) => u.email.toLowerCase() === e);
  }

  /** The user of that e-mail, made when there is none. */
  async ensure(email: string, name?: string): Promise<UserDoc> {
    const found = this.byEmail(email);
    if (found) return found;
    const id = randomUUID();
    const u: UserDoc = {
      id,
      email,
      name: name ?? email.split("@")[0],
      created: new Date().toISOString(),
      type: "USER",
      accounts: {},
      kbs: {},
    };
    await this.store.zone.users.put(id, u);
    return u;
  }

  private async save(u: UserDoc): Promise<void> {
    await this.store.zone.users.put(u.id, u);
  }

  kbMembers(kbid: string): Member[] {
    return this.all()
      .filter((u) => u.kbs[kbid])
      .map((u) => ({ id: u.id, role: u.kbs[kbid], email: u.email, name: u.name }));
  }

  accountMembers(account: string): Member[] {
    return this.all()
      .filter((u) => u.accounts[account])
      .map((u) => ({ id: u.id, role: u.accounts[account], email: u.email, name: u.name }));
  }

  /** Add, update and delete members of a knowledge box in one call; every id is checked before anything changes. */
  async updateKbMembers(
    kbid: string,
    change: { add?: { id: string; role: KbMemberRole }[]; update?: { id: string; role: KbMemberRole }[]; delete?: string[] },
  ): Promise<void> {
    const all = [...(change.add ?? []), ...(change.update ?? []), ...(change.delete ?? []).map((id) => ({ id }))];
    for (const { id } of all) this.require(id);
    for (const { id } of change.update ?? [])
      if (!this.require(id).kbs[kbid]) throw notFound(`User ${id} is not a member of this knowledge box`);
    for (const { id, role } of [...(change.add ?? []), ...(change.update ?? [])]) {
      const u = this.require(id);
      await this.save({ ...u, kbs: { ...u.kbs, [kbid]: role } });
    }
    for (const id of change.delete ?? []) {
      const u = this.require(id);
      const { [kbid]: _gone, ...kbs } = u.kbs;
      await this.save({ ...u, kbs });
    }
  }

  async updateAccountMembers(
    account: string,
    change: { add?: { id: string; role: AccountRole }[]; delete?: string[] },
  ): Promise<void> {
    for (const { id } of [...(change.add ?? []), ...(change.delete ?? []).map((id) => ({ id }))]) this.require(id);
    for (const { id, role } of change.add ?? []) {
      const u = this.require(id);
      await this.save({ ...u, accounts: { ...u.accounts, [account]: role } });
    }
    for (const id of change.delete ?? []) {
      const u = this.require(id);
      if (u.type === "ROOT") throw new KboxError(409, "The machine's owner cannot be removed");
      const { [account]: _gone, ...accounts } = u.accounts;
      await this.save({ ...u, accounts });
    }
  }

  async grantKb(userId: string, kbid: string, role: KbMemberRole): Promise<void> {
    const u = this.require(userId);
    await this.save({ ...u, kbs: { ...u.kbs, [kbid]: role } });
  }

  async grantAccount(userId: string, account: string, role: AccountRole): Promise<void> {
    const u = this.require(userId);
    await this.save({ ...u, accounts: { ...u.accounts, [account]: role } });
  }

  /** Forget every membership of a knowledge box that goes away. */
  async dropKb(kbid: string): Promise<void> {
    for (const u of this.all()) {
      if (!u.kbs[kbid]) continue;
      const { [kbid]: _gone, ...kbs } = u.kbs;
      await this.save({ ...u, kbs });
    }
  }
}
