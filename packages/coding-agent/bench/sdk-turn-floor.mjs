// The floor under a tool turn: the official OpenAI SDK alone (with Node's fetch, its default), in a bare Node
// process, sending the requests of a `read` session to the instant model server, a history that grows by a tool
// call and its result each turn, with no agent around it. Usage: node sdk-turn-floor.mjs <baseUrl> <turns>.
// Prints `{"wallMs":<ms>,"cpuMs":<ms>}` per turn (CPU: user + sys of this process), the first request excluded.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const [baseURL, turnsText] = process.argv.slice(2);
const turns = Number(turnsText);
// The SDK is a dependency of @agent/ai, not of this package.
const requireFromAi = createRequire(new URL("../../ai/package.json", import.meta.url));
const { default: OpenAI } = await import(pathToFileURL(requireFromAi.resolve("openai")).href);
const client = new OpenAI({ apiKey: "bench", baseURL, maxRetries: 0 });
const messages = [{ role: "user", content: `turns=${turns + 2} tool=read` }];

async function turn() {
	const stream = await client.chat.completions.create({ model: "fake-model", stream: true, messages });
	let call;
	for await (const chunk of stream) call ??= chunk.choices[0]?.delta?.tool_calls?.[0];
	if (!call) throw new Error("the server answered without a tool call");
	messages.push({
		role: "assistant",
		content: null,
		tool_calls: [{ id: call.id, type: "function", function: call.function }],
	});
	messages.push({ role: "tool", tool_call_id: call.id, content: "a small file\n" });
}

await turn();
const started = performance.now();
const cpu = process.cpuUsage();
for (let i = 0; i < turns; i++) await turn();
const used = process.cpuUsage(cpu);
process.stdout.write(
	`${JSON.stringify({ wallMs: (performance.now() - started) / turns, cpuMs: (used.user + used.system) / 1000 / turns })}\n`,
);
