// Interop test: the official TypeScript SDK client drives mcpcheck-refserver
// over stdio. usage: node interop.mjs PATH-TO-mcpcheck-refserver
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const bin = process.argv[2];
let passed = 0;
let failed = 0;

async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e && e.stack ? e.stack : e}`);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const client = new Client(
  { name: "mcpcheck-interop", version: "1.0.0" },
  { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
);
let elicitAction = "accept";
client.setRequestHandler(CreateMessageRequestSchema, async (req) => ({
  role: "assistant",
  content: { type: "text", text: `echo ${req.params.messages[0].content.text}` },
  model: "interop-model",
  stopReason: "endTurn",
}));
client.setRequestHandler(ElicitRequestSchema, async () =>
  elicitAction === "accept"
    ? { action: "accept", content: { username: "sdk", email: "sdk@example.com" } }
    : { action: elicitAction },
);
client.setRequestHandler(ListRootsRequestSchema, async () => ({
  roots: [{ uri: "file:///tmp/interop", name: "interop" }],
}));
const logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
const updates = [];
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri));

const transport = new StdioClientTransport({
  command: bin,
  args: ["--step-delay", "5"],
  stderr: "inherit",
});
await client.connect(transport);

async function walk(list, key) {
  const items = [];
  let cursor;
  let pages = 0;
  do {
    const r = await list(cursor ? { cursor } : {});
    items.push(...r[key]);
    cursor = r.nextCursor;
    pages++;
    assert.ok(pages < 1000, "too many pages");
  } while (cursor);
  return { items, pages };
}

async function rejectsWith(promise, code) {
  await assert.rejects(promise, (e) => {
    assert.equal(e.code, code, `error code ${e.code} (${e.message})`);
    return true;
  });
}

await check("server info and version", async () => {
  assert.equal(client.getServerVersion().name, "mcpcheck-refserver");
  assert.ok(client.getServerCapabilities().resources.subscribe);
});

await check("pagination of every list", async () => {
  const res = await walk((p) => client.listResources(p), "resources");
  assert.ok(res.items.length >= 5 && res.pages >= 2, `resources ${res.items.length}/${res.pages}`);
  const tpl = await walk((p) => client.listResourceTemplates(p), "resourceTemplates");
  assert.equal(tpl.items.length, 4);
  assert.ok(tpl.items.some((t) => t.uriTemplate === "test://template/{id}/data"));
  const pr = await walk((p) => client.listPrompts(p), "prompts");
  assert.equal(pr.items.length, 5);
  const tools = await walk((p) => client.listTools(p), "tools");
  assert.ok(tools.items.length >= 23 && tools.pages >= 5, `tools ${tools.items.length}`);
  for (const t of tools.items) assert.ok(t.description, `${t.name} has a description`);
});

await check("invalid cursor is -32602", async () => {
  await rejectsWith(client.listTools({ cursor: "not-a-cursor" }), -32602);
});

await check("text, blob and template reads", async () => {
  const t = await client.readResource({ uri: "test://static-text" });
  assert.equal(t.contents[0].text, "This is the content of the static text resource.");
  const b = await client.readResource({ uri: "test://static-binary" });
  assert.ok(Buffer.from(b.contents[0].blob, "base64").subarray(1, 4).toString() === "PNG");
  const d = await client.readResource({ uri: "test://template/123/data" });
  assert.equal(JSON.parse(d.contents[0].text).id, "123");
  await rejectsWith(client.readResource({ uri: "test://missing" }), -32002);
});

await check("subscribe -> updated", async () => {
  await client.subscribeResource({ uri: "test://watched-resource" });
  await client.callTool({ name: "test_trigger_resource_update", arguments: {} });
  await sleep(50);
  assert.deepEqual(updates, ["test://watched-resource"]);
  await client.unsubscribeResource({ uri: "test://watched-resource" });
  await client.callTool({ name: "test_trigger_resource_update", arguments: {} });
  await sleep(50);
  assert.equal(updates.length, 1);
});

await check("prompts with arguments and errors", async () => {
  const p = await client.getPrompt({
    name: "test_prompt_with_arguments",
    arguments: { arg1: "hello", arg2: "world" },
  });
  assert.equal(p.messages[0].content.text, "Prompt with arguments: arg1='hello', arg2='world'");
  const img = await client.getPrompt({ name: "test_prompt_with_image" });
  assert.equal(img.messages[0].content.type, "image");
  await rejectsWith(client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "x" } }), -32602);
  await rejectsWith(client.getPrompt({ name: "no_such_prompt" }), -32602);
});

await check("logging levels and filtering", async () => {
  await client.setLoggingLevel("warning");
  logs.length = 0;
  await client.callTool({ name: "test_logging_levels", arguments: {} });
  await sleep(50);
  assert.deepEqual(
    logs.map((l) => l.level),
    ["warning", "error", "critical", "alert", "emergency"],
  );
  await client.setLoggingLevel("debug");
  logs.length = 0;
  await client.callTool({ name: "test_tool_with_logging", arguments: {} });
  await sleep(50);
  assert.equal(logs.length, 3);
  await rejectsWith(client.setLoggingLevel("verbose"), -32602);
});

await check("elicitation answered by the client", async () => {
  let r = await client.callTool({ name: "test_elicitation", arguments: { message: "Who?" } });
  assert.match(r.content[0].text, /action=accept/);
  assert.match(r.content[0].text, /sdk@example.com/);
  elicitAction = "decline";
  r = await client.callTool({ name: "test_elicitation", arguments: { message: "Who?" } });
  assert.match(r.content[0].text, /action=decline/);
  elicitAction = "cancel";
  r = await client.callTool({ name: "test_elicitation_sep1034_defaults", arguments: {} });
  assert.match(r.content[0].text, /action=cancel/);
  elicitAction = "accept";
});

await check("sampling answered by the client", async () => {
  const r = await client.callTool({ name: "test_sampling", arguments: { prompt: "ping" } });
  assert.equal(r.content[0].text, "LLM response: echo ping");
});

await check("roots answered by the client", async () => {
  const r = await client.callTool({ name: "test_list_roots", arguments: {} });
  assert.match(r.content[0].text, /file:\/\/\/tmp\/interop/);
});

await check("completion", async () => {
  const r = await client.complete({
    ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
    argument: { name: "arg1", value: "ap" },
  });
  assert.deepEqual(r.completion.values, ["apple", "apricot"]);
  const t = await client.complete({
    ref: { type: "ref/resource", uri: "test://template/{id}/data" },
    argument: { name: "id", value: "4" },
  });
  assert.deepEqual(t.completion.values, ["42"]);
});

await check("progress", async () => {
  const seen = [];
  const r = await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
    onprogress: (p) => seen.push(p.progress),
  });
  assert.match(r.content[0].text, /progress/);
  // The server writes 0, 50 and 100 before its answer. The SDK client drops
  // a progress notification it dispatches after the answer has retired the
  // request's handler, which happens when a busy machine delivers the last
  // reports and the answer in one read: so the reports seen are a non-empty
  // prefix of 0, 50, 100, never anything else.
  assert.ok(seen.length >= 1, "no progress report reached the client");
  assert.deepEqual(seen, [0, 50, 100].slice(0, seen.length));
});

await check("tool errors", async () => {
  const r = await client.callTool({ name: "test_error_handling", arguments: {} });
  assert.equal(r.isError, true);
  await rejectsWith(client.callTool({ name: "no_such_tool", arguments: {} }), -32602);
});

await client.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
