import { describe, expect, it } from "vitest";
import { loadSettings, SettingsError } from "../../../daemon/settings/index.js";
import { lanceOptions } from "../../../daemon/store/location.js";

const base = { KBOX_HOME: "/tmp/kbox-data-uri-test" };

describe("the data URI setting", () => {
  it("reads --data over KBOX_DATA_URI, with the AWS_* variables as storage options", () => {
    const s = loadSettings({
      env: {
        ...base,
        KBOX_DATA_URI: "s3://other/x",
        AWS_ENDPOINT: "http://127.0.0.1:9000",
        AWS_ALLOW_HTTP: "1",
        AWS_ACCESS_KEY_ID: "id",
        AWS_SECRET_ACCESS_KEY: "secret",
        KBOX_STORE_REFRESH: "500ms",
      },
      data: "s3://bucket/team/kbox/",
    });
    expect(s.dataLocation).toMatchObject({ uri: "s3://bucket/team/kbox", bucket: "bucket", prefix: "team/kbox" });
    expect(s.dataLocation?.options.refreshMs).toBe(500);
    expect(lanceOptions(s.dataLocation!)).toEqual({
      aws_endpoint: "http://127.0.0.1:9000",
      aws_region: "us-east-1",
      aws_access_key_id: "id",
      aws_secret_access_key: "secret",
      allow_http: "true",
      aws_virtual_hosted_style_request: "false",
    });
    expect(loadSettings({ env: base }).dataLocation).toBeUndefined();
  });

  it("refuses what cannot work, saying why", () => {
    const bad = (env: Record<string, string>, re: RegExp) => {
      expect(() => loadSettings({ env: { ...base, ...env } })).toThrow(SettingsError);
      expect(() => loadSettings({ env: { ...base, ...env } })).toThrow(re);
    };
    bad({ KBOX_DATA_URI: "gs://bucket/x" }, /gs:\/\/ is not supported.*S3 API/);
    bad({ KBOX_DATA_URI: "/just/a/folder" }, /s3:\/\/bucket\/prefix/);
    bad({ KBOX_DATA_URI: "s3://b/../x" }, /\.\. segments/);
    bad({ KBOX_DATA_URI: "s3://b/x", AWS_ENDPOINT: "http://127.0.0.1:9000" }, /AWS_ALLOW_HTTP/);
  });
});
