/**
 * Encryption of agent secrets: driver configurations at rest (AES-256-GCM under a key file in the
 * data dir's secrets folder, mode 0600) and exports (AES-256-GCM under a key derived from the
 * user's passphrase with scrypt).
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KboxError } from "../errors.js";

/** A sealed value as stored: base64 of iv (12) | tag (16) | ciphertext. */
export type Sealed = { sealed: string };

function encrypt(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([c.update(plain), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]);
}

/** The plaintext, or undefined when the key is wrong or the bytes were changed. */
function decrypt(key: Buffer, data: Buffer): Buffer | undefined {
  if (data.length < 28) return undefined;
  try {
    const d = createDecipheriv("aes-256-gcm", key, data.subarray(0, 12));
    d.setAuthTag(data.subarray(12, 28));
    return Buffer.concat([d.update(data.subarray(28)), d.final()]);
  } catch {
    return undefined;
  }
}

/** Seals JSON values with the daemon's agent key (`<secrets>/agents.key`, made on first use). */
export class SecretBox {
  private key: Buffer | undefined;
  constructor(private readonly dir: string) {}

  private load(): Buffer {
    if (this.key) return this.key;
    const file = join(this.dir, "agents.key");
    if (!existsSync(file)) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
    }
    chmodSync(file, 0o600);
    const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
    if (key.length < 32) throw new Error(`${file} holds no usable key`);
    this.key = key.subarray(0, 32);
    return this.key;
  }

  seal(value: unknown): Sealed {
    return { sealed: encrypt(this.load(), Buffer.from(JSON.stringify(value))).toString("base64") };
  }

  open<T>(s: Sealed): T {
    const plain = decrypt(this.load(), Buffer.from(s.sealed, "base64"));
    if (!plain)
      throw new KboxError(
        409,
        "A driver's sealed configuration does not open with this data dir's key (secrets/agents.key, e.g. after a restore " +
          "on another machine): add the driver again, or import an export of the agent",
      );
    return JSON.parse(plain.toString("utf8")) as T;
  }
}

const MAGIC = Buffer.from("KBOXAGENT1");

/** An export file: magic | salt (16) | iv | tag | ciphertext of the JSON, keyed by scrypt(passphrase). */
export function encryptExport(passphrase: string, value: unknown): Buffer {
  const salt = randomBytes(16);
  const key = scryptSync(passphrase, salt, 32);
  return Buffer.concat([MAGIC, salt, encrypt(key, Buffer.from(JSON.stringify(value)))]);
}

/** The export's JSON, or undefined for a wrong passphrase or a file that is not an intact export. */
export function decryptExport(passphrase: string, file: Buffer): unknown | undefined {
  if (file.length < MAGIC.length + 16 || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const salt = file.subarray(MAGIC.length, MAGIC.length + 16);
  const plain = decrypt(scryptSync(passphrase, salt, 32), file.subarray(MAGIC.length + 16));
  if (!plain) return undefined;
  try {
    return JSON.parse(plain.toString("utf8"));
  } catch {
    return undefined;
  }
}
