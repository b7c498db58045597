// An AgentSession on a scripted provider: runs offline, with real tools in a temp directory. The model
// "asks" to write a file and read it back; the session runs the tools and records everything.
// Run after `pnpm build`:  node packages/coding-agent/examples/sdk/scripted-session.mjs
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FauxProvider, fauxText, fauxToolCall } from "@agent/ai";
import { AuthStorage, createAgentSession, SessionManager, SettingsManager } from "@agent/coding-agent";

const cwd = mkdtempSync(join(tmpdir(), "agent-sdk-example-"));
const faux = new FauxProvider();
faux.enqueue(
	fauxToolCall("write", { path: "hello.txt", content: "Hello from a scripted model\n" }),
	fauxToolCall("read", { path: "hello.txt" }),
	fauxText("I wrote hello.txt and read it back."),
);

const { session } = await createAgentSession({
	cwd,
	agentDir: join(cwd, ".agent-home"),
	sessionManager: SessionManager.inMemory(cwd),
	settingsManager: SettingsManager.inMemory(),
	authStorage: AuthStorage.inMemory({ faux: { type: "api_key", key: "offline" } }),
	model: faux.model(),
	streamFn: faux.stream,
});

session.subscribe((event) => {
	if (event.type === "tool_execution_end") {
		const text = event.result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
		console.log(`[${event.toolName}] ${event.isError ? "error: " : ""}${text.trim()}`);
	}
});

await session.prompt("Create hello.txt and check it.");
console.log(session.getLastAssistantText());
console.log(`messages in context: ${session.messages.length}, model calls: ${faux.requests.length}`);
await session.shutdown();
rmSync(cwd, { recursive: true, force: true });
