import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as bk from "../../../src/api/backups.js";
import * as kbs from "../../../src/api/kbs.js";
import { removeHome, startTestDaemon, tempHome } from "../../helpers/daemon.js";

const home = tempHome();
afterAll(() => removeHome(home));

describe("restore staging across a daemon restart", () => {
  it("removes staging and the folder of a restore that never reached its KB record; keeps finished KBs", async () => {
    const first = await startTestDaemon({ home, keepHome: true });
    const kbid = (await first.client.call(kbs.createKb, { body: { slug: "keep" } })).uuid;
    const { id } = await first.client.call(bk.createBackup, { params: { account_id: "local" }, body: { kb_id: kbid } });
    await first.daemon.services.backups.wait(id);
    await first.stop();

    // What a restore killed halfway leaves: a staging folder and a marked KB folder without a record.
    const data = join(home, "data");
    mkdirSync(join(data, "tmp", "backup", "restore-0123456789abcdef", "lance"), { recursive: true });
    const orphan = join(data, "kbs", "99999999-9999-4999-8999-999999999999");
    mkdirSync(join(orphan, "lance"), { recursive: true });
    writeFileSync(join(orphan, ".kbox-restoring"), "");

    const second = await startTestDaemon({ home, keepHome: true });
    try {
      expect(existsSync(orphan)).toBe(false);
      expect(existsSync(join(data, "tmp", "backup", "restore-0123456789abcdef"))).toBe(false);
      expect(existsSync(join(data, "kbs", kbid))).toBe(true);
      expect((await second.client.call(kbs.listKbs)).kbs.map((k) => k.slug)).toEqual(["keep"]);
      const list = await second.client.call(bk.listBackups, { params: { account_id: "local" } });
      expect(list.map((b) => [b.id, b.status])).toEqual([[id, "finished"]]);
    } finally {
      await second.stop();
    }
  });
});
