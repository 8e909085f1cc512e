import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { signV4 } from "../../daemon/sync/sts.js";

/** A local stand-in of AWS STS AssumeRole: checks the caller's SigV4 signature and hands out fixed temporary credentials. */
export interface LocalSts {
  url: string;
  calls: { roleArn: string; externalId: string; sessionName: string }[];
  close(): Promise<void>;
}

export async function startLocalSts(
  caller: { accessKeyId: string; secretAccessKey: string; region: string },
  grant: { accessKeyId: string; secretAccessKey: string },
  /** The role and external id STS lets the caller assume (read at each call: a test may set them late). */
  trusted: { roleArn: string; externalId: string },
): Promise<LocalSts> {
  const calls: LocalSts["calls"] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const q = new URLSearchParams(body);
      const reply = (status: number, xml: string) => res.writeHead(status, { "content-type": "text/xml" }).end(xml);
      const error = (status: number, code: string, message: string) =>
        reply(
          status,
          `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error></ErrorResponse>`,
        );
      const date = String(req.headers["x-amz-date"] ?? "");
      const when = new Date(
        `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
      );
      const want = signV4(new URL(req.url ?? "/", `http://${req.headers.host}`), body, caller, caller.region, when).authorization;
      if (req.headers.authorization !== want)
        return error(403, "SignatureDoesNotMatch", "The request signature we calculated does not match");
      if (q.get("Action") !== "AssumeRole" || q.get("Version") !== "2011-06-15")
        return error(400, "InvalidAction", "AssumeRole only");
      calls.push({
        roleArn: q.get("RoleArn") ?? "",
        externalId: q.get("ExternalId") ?? "",
        sessionName: q.get("RoleSessionName") ?? "",
      });
      if (q.get("RoleArn") !== trusted.roleArn || q.get("ExternalId") !== trusted.externalId)
        return error(403, "AccessDenied", "User is not authorized to perform: sts:AssumeRole");
      const exp = new Date(Date.now() + 3600_000).toISOString();
      reply(
        200,
        `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>${grant.accessKeyId}</AccessKeyId><SecretAccessKey>${grant.secretAccessKey}</SecretAccessKey><SessionToken>session-token-1</SessionToken><Expiration>${exp}</Expiration></Credentials><AssumedRoleUser><Arn>${trusted.roleArn}/kbox-sync</Arn><AssumedRoleId>AROA:kbox-sync</AssumedRoleId></AssumedRoleUser></AssumeRoleResult></AssumeRoleResponse>`,
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    calls,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
