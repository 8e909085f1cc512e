import type { BrowseQuery, BrowseResult } from "../../../src/api/sync.js";

/** An OAuth application registered with a provider (daemon settings). */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
}

/** One provider's endpoints (defaults: the real provider's) and OAuth application (unset: not offered). */
export interface ProviderEndpoints {
  app?: OAuthApp;
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
}

/** The cloud providers' settings (daemon/settings: KBOX_DRIVE_*, KBOX_DIRECTORY_*, KBOX_FILESHARE_*, KBOX_FILEBOX_*). */
export interface CloudSettings {
  /** Where the provider sends the browser back with the code (this daemon's callback route). */
  redirectUrl?: string;
  drive: ProviderEndpoints;
  directory: ProviderEndpoints & { loginUrl: string };
  fileshare: ProviderEndpoints & { contentUrl: string };
  filebox: ProviderEndpoints;
  /** AssumeRole's endpoint, called with the daemon's own AWS credentials. */
  stsUrl: string;
  aws: { accessKeyId?: string; secretAccessKey?: string; sessionToken?: string; region: string };
}

/** What a connection keeps sealed: the tokens (OAuth) or the certificate (client credentials). */
export interface Tokens {
  access_token: string;
  refresh_token?: string;
  /** Epoch ms; absent: unknown (refreshed on a 401). */
  expires_at?: number;
}

/** A file of a cloud drive as a sync sees it. */
export interface CloudFile {
  /** The provider's stable id (survives renames and moves): the resource's sync file id. */
  id: string;
  /** Path relative to the synced folder, forward slashes. */
  path: string;
  name: string;
  modified: Date;
  size: number;
  /** A content hash or content tag: changes when the bytes do. */
  hash: string;
  /** Whatever the provider needs to download it (a drive id, a URL). */
  ref?: string;
}

/** Where a configuration syncs from: its drive and folder. */
export interface Place {
  drive_id?: string | null;
  folder_id?: string | null;
  sync_root_path?: string | null;
}

/** An authenticated call to the provider's API: refreshes the token on expiry or a 401 and retries once. */
export type ApiCall = (
  url: string,
  init?: { method?: string; headers?: Record<string, string>; body?: string },
) => Promise<Response>;

/** One provider's API: browse, list a folder's files (recursively), download, and sites where it has them. */
export interface CloudApi {
  browse(q: BrowseQuery): Promise<BrowseResult>;
  files(place: Place, signal?: AbortSignal): AsyncIterable<CloudFile>;
  download(f: CloudFile): Promise<Response>;
  resolveSite?(siteUrl: string): Promise<{ id: string; name: string; web_url: string | null }>;
}
