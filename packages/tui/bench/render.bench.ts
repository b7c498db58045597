// Cost of one frame while the transcript grows: a streamed token appended to the last message, and a
// spinner tick, each measured with 10 and with 5,000 messages above. A frame should cost the same at
// both sizes: only the changed component renders and only the changed lines are written.
import {
	Container,
	defaultMarkdownTheme,
	Loader,
	Markdown,
	type TerminalEmulator,
	Text,
	TUI,
	VirtualTerminal,
} from "@agent/tui";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { reportBenchmark } from "../../../scripts/bench-report.js";

const COLUMNS = 100;
const ROWS = 40;
const TOKEN_UPDATES = 2_000;
const SPINNER_TICKS = 2_000;
const WARMUP = 200;

/** Discards output but counts it: the benchmark measures our work, not an emulator's parsing. */
class CountingEmulator implements TerminalEmulator {
	readonly cols = COLUMNS;
	readonly rows = ROWS;
	bytes = 0;
	readonly buffer = {
		active: { length: 0, baseY: 0, viewportY: 0, cursorX: 0, cursorY: 0, getLine: () => undefined },
	};
	write(data: string, callback?: () => void): void {
		this.bytes += Buffer.byteLength(data);
		callback?.();
	}
	resize(): void {}
	reset(): void {}
	clear(): void {}
}

const theme = defaultMarkdownTheme();
const ASSISTANT_REPLY = [
	"Here is what I found in `src/session.ts`:",
	"",
	"- the **writer** flushes on every entry",
	"- the reader parses lines lazily",
	"",
	"```ts",
	"export function load(path: string): Entry[] {",
	'  return readFileSync(path, "utf8").split("\\n").map(parse);',
	"}",
	"```",
	"",
	"Shall I change it?",
].join("\n");

function buildTranscript(messageCount: number) {
	const emulator = new CountingEmulator();
	const terminal = new VirtualTerminal(emulator);
	const tui = new TUI(terminal, { env: {} });
	const chat = new Container();
	for (let i = 0; i < messageCount; i++) {
		if (i % 2 === 0) chat.addChild(new Text(`user message ${i}: please look at the session writer`, 1, 1));
		else chat.addChild(new Markdown(ASSISTANT_REPLY, 1, 1, theme));
	}
	const streaming = new Markdown("Streaming reply:", 1, 1, theme);
	chat.addChild(streaming);
	const status = new Container();
	tui.addChild(chat);
	tui.addChild(status);
	tui.addChild(new Text("> prompt being typed", 0, 0));
	tui.addChild(new Text("~/project · claude-sonnet · 12.3k tokens", 0, 0));
	tui.start();
	tui.renderNow();
	return { tui, emulator, streaming, status };
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

interface Scenario {
	/** Makes the change of one frame (outside the timed section). */
	change(): void;
	/** Renders the frame (timed). */
	render(): void;
	bytesWritten(): number;
	dispose(): void;
}

function tokenAppendScenario(messageCount: number): Scenario {
	const { tui, emulator, streaming } = buildTranscript(messageCount);
	let text = streaming.getText();
	let updates = 0;
	return {
		change: () => {
			// A new paragraph every 200 tokens keeps the reply realistic (several blocks, growing).
			text += updates++ % 200 === 199 ? "\n\nNext paragraph" : ` token${updates % 10}`;
		},
		// setText is inside the timed section: marking the component changed is part of the frame's cost.
		render: () => {
			streaming.setText(text);
			tui.renderNow();
		},
		bytesWritten: () => emulator.bytes,
		dispose: () => tui.stop(),
	};
}

function spinnerScenario(messageCount: number): Scenario {
	const { tui, emulator, status } = buildTranscript(messageCount);
	const loader = new Loader(
		tui,
		(s) => `\x1b[36m${s}\x1b[39m`,
		(s) => s,
		"Working...",
	);
	status.addChild(loader);
	tui.renderNow();
	return {
		change: () => vi.advanceTimersByTime(80),
		render: () => tui.renderNow(),
		bytesWritten: () => emulator.bytes,
		dispose: () => {
			loader.stop();
			tui.stop();
		},
	};
}

/**
 * Runs two scenarios in alternating batches so that JIT warm-up, garbage collection and machine load
 * affect both alike; returns the median frame time and the mean bytes per frame of each.
 */
function compare(small: Scenario, large: Scenario, frames: number): { ms: number; bytes: number }[] {
	const scenarios = [small, large];
	const times: number[][] = [[], []];
	const bytes = [0, 0];
	const batch = 50;
	for (let done = -WARMUP; done < frames; done += batch) {
		scenarios.forEach((scenario, index) => {
			for (let i = 0; i < batch; i++) {
				scenario.change();
				const before = scenario.bytesWritten();
				const start = performance.now();
				scenario.render();
				const elapsed = performance.now() - start;
				if (done >= 0) {
					times[index].push(elapsed);
					bytes[index] += scenario.bytesWritten() - before;
				}
			}
		});
	}
	for (const scenario of scenarios) scenario.dispose();
	return times.map((list, index) => ({ ms: median(list), bytes: bytes[index] / list.length }));
}

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
});
afterEach(() => {
	vi.useRealTimers();
});

it("renders a frame at the same cost with 10 and 5,000 messages", () => {
	const [smallAppend, largeAppend] = compare(tokenAppendScenario(10), tokenAppendScenario(5_000), TOKEN_UPDATES);
	const [smallTick, largeTick] = compare(spinnerScenario(10), spinnerScenario(5_000), SPINNER_TICKS);
	const resumeStart = performance.now();
	const resumed = buildTranscript(5_000);
	const resumeMs = performance.now() - resumeStart;
	const resumeBytes = resumed.emulator.bytes;
	resumed.tui.stop();
	const appendRatio = largeAppend.ms / smallAppend.ms;
	const tickRatio = largeTick.ms / smallTick.ms;

	reportBenchmark("tui-render", [
		{ name: "streamed token append, 10 messages", value: smallAppend.ms, unit: "ms/frame" },
		{ name: "streamed token append, 5,000 messages", value: largeAppend.ms, unit: "ms/frame" },
		{ name: "token append cost ratio 5,000 / 10", value: appendRatio, unit: "x", target: { max: 1.2 } },
		{ name: "bytes per token append, 10 messages", value: smallAppend.bytes, unit: "bytes" },
		{ name: "bytes per token append, 5,000 messages", value: largeAppend.bytes, unit: "bytes" },
		{ name: "spinner tick, 10 messages", value: smallTick.ms, unit: "ms/frame" },
		{ name: "spinner tick, 5,000 messages", value: largeTick.ms, unit: "ms/frame" },
		{ name: "spinner tick cost ratio 5,000 / 10", value: tickRatio, unit: "x", target: { max: 1.2 } },
		{ name: "bytes per spinner tick, 10 messages", value: smallTick.bytes, unit: "bytes" },
		{ name: "bytes per spinner tick, 5,000 messages", value: largeTick.bytes, unit: "bytes" },
		{
			name: "first frame of a 5,000-message transcript (resume)",
			value: resumeMs,
			unit: "ms",
			note: `${Math.round(resumeBytes / 1024)} KiB written once; later frames cost as above`,
		},
	]);

	// Bytes are deterministic: the same frame diff at both sizes.
	expect(largeAppend.bytes).toBeCloseTo(smallAppend.bytes, 0);
	expect(largeTick.bytes).toBe(smallTick.bytes);
});
