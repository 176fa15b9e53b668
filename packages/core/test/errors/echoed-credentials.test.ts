// Issue #24, items 1 and 2 ("done when"): a hostile server echoes the credentials in six forms (plain,
// `\/`-escaped, `\u`-escaped, in a header, in a 2xx wrong-shaped body, in an oversized body); none of
// them reaches an error's message, body, headers, util.inspect or toJSON(), nor a logger event. Every
// response turned into an error is redacted as parsed data, whatever its status.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ApiError, type ClientOptions, type LogEvent } from "../../src/index.js";
import { checkRequest, createApi } from "../../src/internal.js";
import { useTestServer, type ScriptedResponse } from "../support/test-server.js";
import { operations, rejection, type paths } from "../support/api.js";

const server = useTestServer();

/** A token with slashes, so that its `\/`-escaped JSON form differs from the plain one. */
const TOKEN = "tok/en+Live/0123456789abcdef";
const LIMIT = 4096;

const slashEscaped = TOKEN.replaceAll("/", "\\/");
const unicodeEscaped = [...TOKEN]
  .map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
  .join("");
/** Upper-case hex, only some characters escaped, and `\/` mixed in: still the token once decoded. */
const mixedEscaped = [...TOKEN]
  .map((char, i) =>
    char === "/"
      ? "\\/"
      : i % 3 === 0
        ? `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`
        : char,
  )
  .join("");
/** Every form of the token that must not be found. */
const FORMS = [TOKEN, slashEscaped, unicodeEscaped, mixedEscaped];

function api(options: ClientOptions = {}) {
  return createApi<paths>({
    api: "test",
    options: { baseUrl: server.url, maxRetries: 0, maxResponseBytes: LIMIT, ...options },
    defaultBaseUrl: "https://example.invalid",
    authorization: `Bearer ${TOKEN}`,
    secrets: [TOKEN],
    userAgent: "test",
    operations,
    check: checkRequest,
  });
}

/** Headers of a JSON body written by hand (so the token appears in the escaped form given). */
const JSON_TYPE = { "content-type": "application/json" };

function expectClean(value: unknown): void {
  const texts = [
    inspect(value, { depth: Infinity, showHidden: true }),
    JSON.stringify(value) ?? "",
    String(value),
  ];
  if (value instanceof Error) texts.push(value.message, value.stack ?? "");
  if (value instanceof ApiError) {
    texts.push(
      inspect(value.body, { depth: Infinity }),
      JSON.stringify(value.body) ?? "",
      [...value.headers].join(" "),
    );
  }
  // `inspect` and `JSON.stringify` double a backslash: look for each form as written there too.
  const forms = FORMS.flatMap((form) => [form, form.replaceAll("\\", "\\\\")]);
  for (const text of texts) for (const form of forms) expect(text).not.toContain(form);
}

const echoHeaders = { "x-echo": TOKEN, "www-authenticate": `Bearer realm="${TOKEN}"` };

/** The six forms, each as the scripted response that carries it. */
const CASES: Array<[string, ScriptedResponse]> = [
  ["plain, in an error body", { status: 401, body: { error: `bad token Bearer ${TOKEN}` } }],
  [
    "`\\/`-escaped, in an error body",
    { status: 401, headers: JSON_TYPE, body: `{"error":"bad token ${slashEscaped}"}` },
  ],
  [
    "`\\u`-escaped, in an error body (as a key too)",
    {
      status: 403,
      headers: JSON_TYPE,
      body: `{"error":"denied ${unicodeEscaped}","${unicodeEscaped}":["${unicodeEscaped}"]}`,
    },
  ],
  ["in a header of an error", { status: 404, headers: echoHeaders, body: { error: "nope" } }],
  [
    "in a 2xx wrong-shaped body and its headers (escaped)",
    {
      status: 200,
      headers: { ...echoHeaders, "content-type": "application/json" },
      body: `["${slashEscaped}", "${unicodeEscaped}", {"t": "${TOKEN}"}]`,
    },
  ],
  [
    "in a 2xx body that is not JSON",
    { status: 200, headers: echoHeaders, body: `<html>${TOKEN}</html>` },
  ],
  // Not valid JSON, so not parsed: the escaped forms must be caught in the text itself.
  [
    "`\\/`-escaped, in an HTML error body",
    {
      status: 502,
      headers: { "content-type": "text/html" },
      body: `<html><pre>{"authorization":"Bearer ${slashEscaped}"}</pre></html>`,
    },
  ],
  [
    "`\\u`-escaped, in a truncated JSON error body",
    { status: 401, headers: JSON_TYPE, body: `{"error":"bad token ${unicodeEscaped}","at":"` },
  ],
  [
    "escaped in mixed forms after a `\\n` escape, in a truncated 2xx JSON body",
    { status: 200, headers: JSON_TYPE, body: `{"echo":"token:\\n${mixedEscaped}\\t${TOKEN}` },
  ],
  [
    "in an oversized error body and its headers",
    { status: 400, headers: echoHeaders, body: `${TOKEN} `.repeat(LIMIT / 8) },
  ],
  [
    "in an oversized 2xx body and its headers",
    { status: 200, headers: echoHeaders, body: `${TOKEN} `.repeat(LIMIT / 8) },
  ],
];

describe("a server echoing the credentials", () => {
  it.each(CASES)("%s: redacted everywhere", async (_name, script) => {
    const events: LogEvent[] = [];
    server.enqueue(script);
    const error = await rejection(
      api({ logger: (event) => void events.push(event) }).request("getThing", {}),
    );
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(script.status);
    expectClean(error);
    expectClean((error as ApiError).toJSON());
    expect(events.map((event) => event.type)).toContain("error");
    expectClean(events);
  });

  it.each(CASES.filter(([, script]) => script.status !== 200))(
    "%s: redacted from what raw returns too",
    async (_name, script) => {
      server.enqueue(script);
      const result: unknown = await api()
        .raw.GET("/thing")
        .catch((error: unknown) => error);
      // A body over the limit is not read: raw throws the (redacted) error, having no response.
      if (result instanceof Error) return expectClean(result);
      const { error, response } = result as { error: unknown; response: Response };
      expectClean(error);
      for (const form of FORMS) {
        expect(await response.text()).not.toContain(form);
        expect([...response.headers].join(" ")).not.toContain(form);
      }
    },
  );

  it("the redacted error keeps what is not secret", async () => {
    server.enqueue(CASES[2]![1]);
    const error = (await rejection(api().request("getThing", {}))) as ApiError;
    expect(error.body).toEqual({ error: "denied [REDACTED]", "[REDACTED]": ["[REDACTED]"] });
    expect(error.message).toContain("403 Forbidden: denied [REDACTED] (GET");
  });
});
