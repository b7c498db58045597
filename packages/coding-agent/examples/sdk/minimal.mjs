// The smallest real embedding: your configured model, the default tools, an in-memory session.
// Run after `pnpm build`:  node packages/coding-agent/examples/sdk/minimal.mjs "What is in this directory?"
import { createAgentSession, SessionManager } from "@agent/coding-agent";

const question = process.argv[2] ?? "List the files in this directory and say what the project is.";
const { session, modelFallbackMessage } = await createAgentSession({ sessionManager: SessionManager.inMemory() });
if (modelFallbackMessage) console.error(modelFallbackMessage);

session.subscribe((event) => {
	if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
		process.stdout.write(event.assistantMessageEvent.delta);
	}
	if (event.type === "tool_execution_start") console.error(`\n[${event.toolName}] ${JSON.stringify(event.args)}`);
	if (event.type === "auto_retry_start")
		console.error(`\n[retry ${event.attempt}] in ${event.delayMs} ms: ${event.errorMessage}`);
});

try {
	await session.prompt(question);
	process.stdout.write("\n");
	const stats = session.getSessionStats();
	console.error(`tokens: ${stats.tokens.total}, cost: $${stats.cost.toFixed(4)}`);
} catch (error) {
	// No model or no API key: the message says how to set one up.
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
} finally {
	await session.shutdown();
}
