import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3Client } from "../../daemon/store/bucket.js";
import { type LocalS3, startLocalS3 } from "../helpers/s3.js";

// The S3 stand-in the object-store tests run against must behave as S3 where Lance leans on it: a PUT
// into a "folder" racing the DELETE of that folder's last object (Lance writing a transaction file while
// it cleans up old ones) must succeed, and a reader must see a whole object, old or new.
let s3: LocalS3;
let client: S3Client;
beforeAll(async () => {
  s3 = await startLocalS3(["t"]);
  client = s3Client(s3.access);
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
});

describe("the S3 stand-in (test/helpers/s3.ts)", () => {
  it("a PUT racing the DELETE of its folder's last object lands, and reads are whole", async () => {
    const body = (i: number) => `${String(i).padStart(6, "0")}:${"x".repeat(16 * 1024)}`;
    for (let round = 0; round < 8; round++) {
      const dirs = Array.from({ length: 20 }, (_, i) => `tbl-${i}/_transactions`);
      await Promise.all(dirs.map((d) => client.send(new PutObjectCommand({ Bucket: "t", Key: `${d}/old`, Body: "old" }))));
      const puts = await Promise.all(
        dirs.flatMap((d) => [
          client.send(new DeleteObjectCommand({ Bucket: "t", Key: `${d}/old` })),
          client.send(new PutObjectCommand({ Bucket: "t", Key: `${d}/new-${round}`, Body: body(round) })),
        ]),
      );
      for (const p of puts) expect(p.$metadata.httpStatusCode).toBeLessThan(300);
      for (const d of dirs) {
        const got = await client.send(new GetObjectCommand({ Bucket: "t", Key: `${d}/new-${round}` }));
        expect(await got.Body?.transformToString()).toBe(body(round));
        await client.send(new DeleteObjectCommand({ Bucket: "t", Key: `${d}/new-${round}` }));
      }
    }
    // Overwrites while reading: every read sees one whole version.
    const reads: Promise<string>[] = [];
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 30; i++) {
      writes.push(client.send(new PutObjectCommand({ Bucket: "t", Key: "same", Body: body(i) })));
      reads.push(
        client
          .send(new GetObjectCommand({ Bucket: "t", Key: "same" }))
          .then((r) => r.Body?.transformToString() ?? "")
          .catch(() => "missing"),
      );
    }
    await Promise.all(writes);
    for (const r of await Promise.all(reads)) {
      if (r !== "missing") expect(r).toMatch(/^\d{6}:x{16384}$/);
    }
  });
});
