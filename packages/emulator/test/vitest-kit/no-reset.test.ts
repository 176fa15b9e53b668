// useEmulator({ reset: false }) keeps state between the tests of a file.
import { beforeAll, expect, it } from "vitest";
import { useEmulator } from "../../src/vitest.js";

const emu = useEmulator({ reset: false });
const headers = () => ({
  authorization: `Basic ${Buffer.from(`${emu.credentials.email}:${emu.credentials.apiKey}`).toString("base64")}`,
  "content-type": "application/json",
});
beforeAll(() => emu.reset());

it("a test creates a team", async () => {
  const res = await fetch(`${emu.url}/v2/team`, {
    method: "POST",
    headers: headers(),
    body: JSON.stringify({ team_name: "kept", copy_cc: false }),
  });
  expect(res.status).toBe(200);
});
it("the next test still sees it", async () => {
  const teams = (await (await fetch(`${emu.url}/v2/teams`, { headers: headers() })).json()) as {
    team_name: string;
  }[];
  expect(teams.map((t) => t.team_name)).toEqual(["kept"]);
});
