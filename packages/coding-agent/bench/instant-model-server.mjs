// An OpenAI-compatible chat-completions server that answers at once, in its own process, so the CLI benchmark
// measures the agent and not a fake server sharing the benchmark's event loop. Stateless: the reply follows
// from the request. A first user message `turns=<N> tool=<read|bash|edit>` gets N-1 tool calls and then "done";
// anything else gets "ok". Prints `{"port":<n>}` once listening.
// With --log it also prints one line per request, `{"request":<n>,"gapMs":<ms>,"rssKb":<kb>,"cpuMs":<ms>}`: the time
// since its previous reply ended (what the agent spent between two model calls: tool, events, building the
// request), and the resident memory and CPU time so far (user + sys, with the children it waited for) of the
// process whose pid was last sent on stdin as `{"watchPid":<pid>}`. That line may also carry `"replyDelayMs":<ms>`:
// from then on each reply starts that long after its request arrived, as a model's would (0 unless given).
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const log = process.argv.includes("--log");
let watchPid;
let replyDelayMs = 0;
let requests = 0;
let lastReplyEnd;

function rssKb(pid) {
	try {
		return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
	} catch {
		return undefined;
	}
}

// /proc/<pid>/stat counts in clock ticks, 100 a second on Linux.
const MS_PER_TICK = 10;

function cpuMs(pid) {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		// Fields after the command name (which may hold spaces): utime, stime, cutime, cstime are 14-17.
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		return fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0) * MS_PER_TICK;
	} catch {
		return undefined;
	}
}

// `edit` turns flip note.txt's "a small file" to "A small file" and back (odd turns, even turns): a run of an even
// number of edits leaves the file as it found it.
const TOOL_ARGUMENTS = { read: () => ({ path: "note.txt" }), bash: () => ({ command: "true" }), edit: editArguments };

function editArguments(turn) {
	const [from, to] = turn % 2 === 1 ? ["a small file", "A small file"] : ["A small file", "a small file"];
	return { path: "note.txt", oldText: from, newText: to };
}

const chunk = (delta, finishReason = null, usage = undefined) =>
	`data: ${JSON.stringify({
		id: "chatcmpl-bench",
		object: "chat.completion.chunk",
		created: 1,
		model: "fake-model",
		choices: [{ index: 0, delta, finish_reason: finishReason }],
		...(usage ? { usage } : {}),
	})}\n\n`;

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function textOf(content) {
	if (typeof content === "string") return content;
	return (content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");
}

function reply(body) {
	const firstUser = body.messages.find((message) => message.role === "user");
	const script = /turns=(\d+) tool=(\w+)/.exec(textOf(firstUser?.content));
	if (!script) return { text: "ok" };
	const turn = body.messages.filter((message) => message.role === "assistant").length + 1;
	const [, turns, tool] = script;
	if (turn >= Number(turns)) return { text: "done" };
	return {
		toolCall: { id: `call_${turn}`, name: tool, arguments: JSON.stringify(TOOL_ARGUMENTS[tool]?.(turn) ?? {}) },
	};
}

const server = createServer(async (req, res) => {
	const arrived = performance.now();
	if (log) {
		requests++;
		const gapMs = lastReplyEnd === undefined ? undefined : arrived - lastReplyEnd;
		const rss = watchPid === undefined ? undefined : rssKb(watchPid);
		const cpu = watchPid === undefined ? undefined : cpuMs(watchPid);
		process.stdout.write(`${JSON.stringify({ request: requests, gapMs, rssKb: rss, cpuMs: cpu })}\n`);
	}
	const parts = [];
	for await (const part of req) parts.push(part);
	const answer = reply(JSON.parse(Buffer.concat(parts).toString("utf8")));
	if (replyDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, replyDelayMs));
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	res.write(chunk({ role: "assistant", content: "" }));
	if (answer.toolCall) {
		const { id, name, arguments: args } = answer.toolCall;
		res.write(chunk({ tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: args } }] }));
		res.write(chunk({}, "tool_calls", USAGE));
	} else {
		res.write(chunk({ content: answer.text }));
		res.write(chunk({}, "stop", USAGE));
	}
	res.end("data: [DONE]\n\n", () => {
		lastReplyEnd = performance.now();
	});
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
let control = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (text) => {
	control += text;
	for (let newline = control.indexOf("\n"); newline !== -1; newline = control.indexOf("\n")) {
		const line = control.slice(0, newline);
		control = control.slice(newline + 1);
		if (line.trim()) ({ watchPid, replyDelayMs = 0 } = JSON.parse(line));
	}
});
process.stdin.on("end", () => process.exit(0));
