import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Credentials of external connections, encrypted at rest (AES-256-GCM) with a key file of this
 * daemon (`<data>/secrets/sync-connections.key`, 0600, made on first use). The tables hold only
 * `v1:<iv>:<tag>:<ciphertext>`; a backup carries the sealed value, not the key.
 */
export class SecretBox {
  private key?: Buffer;

  constructor(private readonly keyFile: string) {}

  private keyBytes(): Buffer {
    if (this.key) return this.key;
    try {
      this.key = Buffer.from(readFileSync(this.keyFile, "utf8").trim(), "base64");
    } catch {
      mkdirSync(dirname(this.keyFile), { recursive: true, mode: 0o700 });
      const k = randomBytes(32);
      // "wx": two first uses at once must not each write a different key.
      try {
        writeFileSync(this.keyFile, k.toString("base64"), { mode: 0o600, flag: "wx" });
        this.key = k;
      } catch {
        this.key = Buffer.from(readFileSync(this.keyFile, "utf8").trim(), "base64");
      }
    }
    if (this.key.length !== 32) throw new Error(`${this.keyFile} is not a 32-byte key`);
    return this.key;
  }

  seal(value: unknown): string {
    const iv = randomBytes(12);
    const c = createCipheriv("aes-256-gcm", this.keyBytes(), iv);
    const body = Buffer.concat([c.update(JSON.stringify(value), "utf8"), c.final()]);
    return ["v1", iv.toString("base64"), c.getAuthTag().toString("base64"), body.toString("base64")].join(":");
  }

  open<T>(sealed: string): T {
    const [v, iv, tag, body] = sealed.split(":");
    if (v !== "v1" || !body) throw new Error("unreadable sealed credentials");
    const d = createDecipheriv("aes-256-gcm", this.keyBytes(), Buffer.from(iv, "base64"));
    d.setAuthTag(Buffer.from(tag, "base64"));
    try {
      return JSON.parse(Buffer.concat([d.update(Buffer.from(body, "base64")), d.final()]).toString("utf8")) as T;
    } catch {
      throw new Error(
        "the connection's credentials were sealed with another key (a restored box, or another daemon's data): create the connection again",
      );
    }
  }
}
