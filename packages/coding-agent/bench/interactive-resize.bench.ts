// Issue 22: what drawing the whole history again costs. A resize (or Ctrl+O) re-renders the transcript and, in
// the inline mode, clears the scrollback and prints it again. Measured on a 2,000-message history built the way
// a long live session builds it (every message's component in the transcript: questions, replies with lists and
// highlighted code, `read` calls with highlighted file contents, `bash` calls) and on the same session resumed.
import { readFileSync } from "node:fs";
import type { AssistantMessage, Message, ToolResultMessage } from "@agent/ai";
import type { Terminal } from "@agent/tui";
import { describe, expect, it } from "vitest";
import { median, reportBenchmark } from "../../../scripts/bench-report.js";
import { SessionManager } from "../src/core/session/session-manager.js";
import { InteractiveMode } from "../src/modes/interactive/interactive-mode.js";
import { createRuntimeHarness } from "../test/helpers/runtime-harness.js";
import { assistantMessage, userMessage } from "../test/helpers/session-fixtures.js";

const MESSAGES = 2_000;
const RESIZES = 12;
const TARGET_MS = 100;

/** A terminal that only counts what is written, with a size the benchmark changes. */
class CountingTerminal implements Terminal {
	bytes = 0;
	readonly kittyProtocolActive = false;
	private onResize: (() => void) | undefined;
	constructor(
		public columns = 120,
		public rows = 40,
	) {}
	start(_onInput: (data: string) => void, onResize: () => void): void {
		this.onResize = onResize;
	}
	stop(): void {}
	async drainInput(): Promise<void> {}
	write(data: string): void {
		this.bytes += Buffer.byteLength(data, "utf8");
	}
	resize(columns: number): void {
		this.columns = columns;
		this.onResize?.();
	}
	moveBy(): void {}
	hideCursor(): void {}
	showCursor(): void {}
	clearLine(): void {}
	clearFromCursor(): void {}
	clearScreen(): void {}
	setTitle(): void {}
}

const FILE = Array.from(
	{ length: 24 },
	(_, i) =>
		`export function step${i}(input: number[]): number {\n\treturn input.reduce((sum, value) => sum + value * ${i}, 0);\n}`,
).join("\n");

function toolCallMessage(index: number, name: string, args: Record<string, unknown>): AssistantMessage {
	const message = assistantMessage(`Let me look at part ${index}.`);
	message.content.push({ type: "toolCall", id: `call_${index}`, name, arguments: args });
	message.stopReason = "toolUse";
	return message;
}

function toolResult(index: number, name: string, text: string): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: `call_${index}`,
		toolName: name,
		content: [{ type: "text", text }],
		isError: false,
		timestamp: 0,
	};
}

/** `count` messages in exchanges of four: question, tool call, its result, answer. */
function history(count: number): Message[] {
	const messages: Message[] = [];
	for (let i = 0; messages.length < count; i++) {
		messages.push(userMessage(`Question ${i}: how does the parser handle nested blocks in file ${i}.ts?`));
		if (i % 2 === 0) {
			messages.push(toolCallMessage(i, "read", { path: `src/parser-${i}.ts` }));
			messages.push(toolResult(i, "read", FILE));
		} else {
			messages.push(toolCallMessage(i, "bash", { command: `npm test -- parser-${i}` }));
			messages.push(
				toolResult(i, "bash", Array.from({ length: 30 }, (_, k) => `ok ${k} - parses case ${k}`).join("\n")),
			);
		}
		messages.push(
			assistantMessage(
				`The parser in \`src/parser-${i}.ts\` walks the tokens once.\n\n- it keeps a **stack** of open blocks\n- it closes them on dedent\n\n\`\`\`ts\nfunction parse(tokens: Token[]) {\n  return walk(tokens, 0);\n}\n\`\`\``,
			),
		);
	}
	return messages.slice(0, count);
}

interface Figures {
	firstResizeMs: number;
	firstResizeCpuMs: number;
	resizeMs: number;
	/** CPU time of the process for the same frames (less sensitive to other jobs on the machine). */
	resizeCpuMs: number;
	resizeBytes: number;
	expandMs: number;
	expandCpuMs: number;
	collapseMs: number;
	linesBefore: number;
	linesAfter: number;
}

function loadAverage(): string {
	try {
		return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
	} catch {
		return "unknown";
	}
}

/** Times a frame: `change` then one render, as the TUI does after a resize or a key (wall and CPU ms). */
function timeFrame(mode: InteractiveMode, change: () => void): { ms: number; cpuMs: number } {
	const cpuBefore = process.cpuUsage();
	const start = performance.now();
	change();
	mode.tui.renderNow();
	const ms = performance.now() - start;
	const cpu = process.cpuUsage(cpuBefore);
	return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function measure(kind: "live" | "resumed"): Promise<Figures> {
	const manager = SessionManager.inMemory("/tmp/bench-project");
	const messages = history(MESSAGES);
	if (kind === "resumed") for (const message of messages) manager.appendMessage(message);
	const runtime = await createRuntimeHarness({ sessionManager: manager, persist: false });
	const terminal = new CountingTerminal();
	const mode = new InteractiveMode(runtime.session, { agentDir: runtime.agentDir, env: {}, terminal });
	const exit = mode.run();
	if (kind === "live") {
		// As a long session leaves it: every message's components were appended as it arrived.
		const results = new Map<string, ToolResultMessage>();
		for (const message of messages) if (message.role === "toolResult") results.set(message.toolCallId, message);
		for (const message of messages)
			if (message.role !== "toolResult") mode.transcript.appendMessage(message, results);
	}
	mode.tui.renderNow();
	const linesBefore = mode.tui.render(terminal.columns).length;

	const first = timeFrame(mode, () => terminal.resize(100));
	const times: number[] = [];
	const cpu: number[] = [];
	const bytes: number[] = [];
	for (let i = 0; i < RESIZES; i++) {
		const before = terminal.bytes;
		const frame = timeFrame(mode, () => terminal.resize(i % 2 === 0 ? 120 : 100));
		times.push(frame.ms);
		cpu.push(frame.cpuMs);
		bytes.push(terminal.bytes - before);
	}
	const expand = timeFrame(mode, () => mode.setToolsExpanded(true));
	const collapse = timeFrame(mode, () => mode.setToolsExpanded(false));
	const linesAfter = mode.tui.render(terminal.columns).length;
	await mode.quit(0);
	await exit;
	runtime.dispose();
	return {
		firstResizeMs: first.ms,
		firstResizeCpuMs: first.cpuMs,
		resizeMs: median(times),
		resizeCpuMs: median(cpu),
		resizeBytes: median(bytes),
		expandMs: expand.ms,
		expandCpuMs: expand.cpuMs,
		collapseMs: collapse.ms,
		linesBefore,
		linesAfter,
	};
}

describe("drawing the history again", () => {
	it(`re-renders a ${MESSAGES.toLocaleString("en")}-message history on resize in under ${TARGET_MS} ms`, async () => {
		const live = await measure("live");
		const resumed = await measure("resumed");
		const target = { max: TARGET_MS };
		reportBenchmark("interactive-resize", [
			{
				name: "first resize of a live 2,000-message transcript",
				value: live.firstResizeMs,
				unit: "ms",
				target,
				note: `${live.linesBefore} lines before; older messages beyond the row budget are summed up in one line, ${live.linesAfter} lines after`,
			},
			{ name: "CPU for that first resize", value: live.firstResizeCpuMs, unit: "ms" },
			{ name: "resize, live 2,000-message transcript (median)", value: live.resizeMs, unit: "ms", target },
			{
				name: "CPU per resize, live 2,000-message transcript (median)",
				value: live.resizeCpuMs,
				unit: "ms",
				note: `load average ${loadAverage()}`,
			},
			{
				name: "bytes written per resize (screen and scrollback cleared, every line printed)",
				value: live.resizeBytes,
				unit: "B",
			},
			{
				name: "Ctrl+O expand, live 2,000-message transcript",
				value: live.expandMs,
				unit: "ms",
				note: `CPU ${live.expandCpuMs.toFixed(0)} ms; highlights every expanded file read once (kept for the next toggle)`,
			},
			{ name: "Ctrl+O collapse", value: live.collapseMs, unit: "ms" },
			{ name: "resize, resumed 2,000-message session (median)", value: resumed.resizeMs, unit: "ms", target },
		]);
		expect(live.linesAfter).toBeGreaterThan(1000);
	});
});
