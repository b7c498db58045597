import { EventEmitter } from "node:events";
import { isKittyProtocolActive, ProcessTerminal } from "@agent/tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

class FakeStdin extends EventEmitter {
	isTTY = true;
	isRaw = false;
	rawModes: boolean[] = [];
	setRawMode(mode: boolean) {
		this.isRaw = mode;
		this.rawModes.push(mode);
		return this;
	}
	setEncoding() {
		return this;
	}
	resume() {
		return this;
	}
	pause() {
		return this;
	}
}

class FakeStdout extends EventEmitter {
	isTTY = true;
	columns = 100;
	rows = 30;
	output = "";
	write(data: string) {
		this.output += data;
		return true;
	}
}

function createTerminal() {
	const stdin = new FakeStdin();
	const stdout = new FakeStdout();
	const terminal = new ProcessTerminal(
		stdin as unknown as NodeJS.ReadStream,
		stdout as unknown as NodeJS.WriteStream,
		{},
	);
	const input: string[] = [];
	let resizes = 0;
	terminal.start(
		(data) => input.push(data),
		() => resizes++,
	);
	return { terminal, stdin, stdout, input, resizes: () => resizes };
}

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
	vi.spyOn(process, "kill").mockImplementation(() => true);
});
afterEach(() => {
	vi.useRealTimers();
	vi.restoreAllMocks();
});

describe("start", () => {
	it("enters raw mode, enables bracketed paste and queries the Kitty protocol", () => {
		const { terminal, stdin, stdout } = createTerminal();
		expect(stdin.rawModes).toEqual([true]);
		expect(stdout.output).toBe("\x1b[?2004h\x1b[?u");
		expect(terminal.columns).toBe(100);
		expect(terminal.rows).toBe(30);
		terminal.stop();
	});

	it("enables the Kitty protocol when the terminal answers, hiding the answer from input", () => {
		const { terminal, stdin, stdout, input } = createTerminal();
		stdin.emit("data", "\x1b[?0u");
		expect(stdout.output.endsWith("\x1b[>7u")).toBe(true);
		expect(terminal.kittyProtocolActive).toBe(true);
		expect(isKittyProtocolActive()).toBe(true);
		expect(input).toEqual([]);
		vi.advanceTimersByTime(200);
		expect(stdout.output).not.toContain("\x1b[>4;2m");
		terminal.stop();
		expect(isKittyProtocolActive()).toBe(false);
	});

	it("falls back to modifyOtherKeys when no answer comes within 150 ms", () => {
		const { terminal, stdout } = createTerminal();
		vi.advanceTimersByTime(149);
		expect(stdout.output).not.toContain("\x1b[>4;2m");
		vi.advanceTimersByTime(1);
		expect(stdout.output.endsWith("\x1b[>4;2m")).toBe(true);
		expect(terminal.kittyProtocolActive).toBe(false);
		terminal.stop();
		expect(stdout.output.endsWith("\x1b[?2004l\x1b[>4;0m")).toBe(true);
	});
});

describe("input", () => {
	it("splits keys and re-wraps bracketed pastes", () => {
		const { terminal, stdin, input } = createTerminal();
		stdin.emit("data", "a\x1b[200~pasted\ntext\x1b[201~\r");
		expect(input).toEqual(["a", "\x1b[200~pasted\ntext\x1b[201~", "\r"]);
		terminal.stop();
	});

	it("reports resizes", () => {
		const { terminal, stdout, resizes } = createTerminal();
		stdout.emit("resize");
		expect(resizes()).toBe(1);
		terminal.stop();
	});
});

describe("stop", () => {
	it("turns the protocols off, restores the previous raw mode and stops listening", () => {
		const { terminal, stdin, stdout, input } = createTerminal();
		stdin.emit("data", "\x1b[?1u");
		terminal.stop();
		expect(stdout.output.endsWith("\x1b[?2004l\x1b[<u")).toBe(true);
		expect(stdin.rawModes).toEqual([true, false]);
		stdin.emit("data", "x");
		expect(input).toEqual([]);
		expect(stdin.listenerCount("data")).toBe(0);
	});

	it("restores the terminal when the process exits", () => {
		const { terminal, stdin } = createTerminal();
		const exitListeners = process.listeners("exit");
		const restore = exitListeners[exitListeners.length - 1] as () => void;
		restore();
		expect(stdin.rawModes).toEqual([true, false]);
		terminal.stop();
		expect(process.listeners("exit")).not.toContain(restore);
	});
});
