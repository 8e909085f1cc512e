import { randomUUID } from "node:crypto";
import { conflict, KboxError, notFound } from "../errors.js";
import type { AccountDoc, KbDoc, Store } from "../store/index.js";

/** The default account's slug: old clients and the JS SDK's standalone mode send it as the account. */
export const DEFAULT_ACCOUNT_SLUG = "local";

/** Accounts of this zone: the default one (made at first start) and any created since. */
export class AccountService {
  private constructor(
    private readonly store: Store,
    readonly zone: string,
  ) {}

  /** Open the accounts; the first start makes the default account (a UUID id, slug `local`). */
  static async open(store: Store, zone: string): Promise<AccountService> {
    const s = new AccountService(store, zone);
    if (![...store.zone.accounts.values()].some((a) => a.default)) {
      const id = randomUUID();
      await store.zone.accounts.put(id, {
        id,
        slug: DEFAULT_ACCOUNT_SLUG,
        title: "Local account",
        description: "",
        created: new Date().toISOString(),
        default: true,
      });
    }
    return s;
  }

  get default(): AccountDoc {
    const a = [...this.store.zone.accounts.values()].find((x) => x.default);
    if (!a) throw new Error("no default account");
    return a;
  }

  list(): AccountDoc[] {
    return [...this.store.zone.accounts.values()].sort((a, b) => a.created.localeCompare(b.created));
  }

  /** An account by id or slug, or undefined. */
  find(ref: string): AccountDoc | undefined {
    const byId = this.store.zone.accounts.get(ref);
    if (byId) return byId;
    return this.list().find((a) => a.slug === ref);
  }

  /** An account by id or slug, or 404. */
  require(ref: string): AccountDoc {
    const a = this.find(ref);
    if (!a) throw notFound("Account not found");
    return a;
  }

  /** The account a knowledge box belongs to. */
  accountOf(kb: KbDoc): string {
    return kb.account_id ?? this.default.id;
  }

  /** A knowledge box of an account (by id or slug); 404 when it is another account's. */
  kbIn<T extends KbDoc>(ref: string, kb: T): T {
    if (this.accountOf(kb) !== this.require(ref).id) throw notFound("Knowledge Box does not exist");
    return kb;
  }

  /** The account record of the management API. */
  record(a: AccountDoc, counts: { kbs: number; users: number }, canManage: boolean) {
    return {
      id: a.id,
      slug: a.slug,
      title: a.title,
      description: a.description,
      type: "stash-basic",
      zone: this.zone,
      creation_date: a.created,
      blocked_features: [],
      can_manage_account: canManage,
      current_kbs: counts.kbs,
      max_kbs: -1,
      current_users: counts.users,
      max_users: -1,
    };
  }

  async create(input: { slug: string; title: string; description?: string }): Promise<AccountDoc> {
    if (this.find(input.slug)) throw conflict("An account with this slug already exists");
    const id = randomUUID();
    const doc: AccountDoc = {
      id,
      slug: input.slug,
      title: input.title,
      description: input.description ?? "",
      created: new Date().toISOString(),
    };
    await this.store.zone.accounts.put(id, doc);
    return doc;
  }

  async update(ref: string, patch: { slug?: string; title?: string; description?: string }): Promise<AccountDoc> {
    const a = this.require(ref);
    if (patch.slug && patch.slug !== a.slug && this.find(patch.slug)) throw conflict("An account with this slug already exists");
    const next = { ...a };
    for (const [k, v] of Object.entries(patch)) if (v !== undefined && v !== null) (next as Record<string, unknown>)[k] = v;
    await this.store.zone.accounts.put(a.id, next);
    return next;
  }

  /** Delete an account that holds no knowledge box; the default account stays. */
  async delete(ref: string, kbs: KbDoc[]): Promise<void> {
    const a = this.require(ref);
    if (a.default) throw new KboxError(409, "The default account cannot be deleted");
    if (kbs.some((kb) => this.accountOf(kb) === a.id)) throw conflict("The account still has knowledge boxes: delete them first");
    await this.store.zone.accounts.delete(a.id);
  }
}
