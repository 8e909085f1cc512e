/** Account routes take the account by id or slug; "local" names the caller's default account. */
export const ACCOUNT = { account_id: "local" };
