import { afterEach, describe, expect, it, vi } from "vitest";
import { RpcExtensionUiBridge } from "../../src/modes/rpc/extension-ui-bridge.js";
import type { RpcExtensionUiRequest } from "../../src/modes/rpc/protocol.js";

function createBridge() {
	const sent: RpcExtensionUiRequest[] = [];
	let counter = 0;
	const bridge = new RpcExtensionUiBridge(
		(request) => sent.push(request),
		() => `ui-${++counter}`,
	);
	return { bridge, sent };
}

afterEach(() => {
	vi.useRealTimers();
});

describe("dialogs", () => {
	it("sends a select request with the wire's key order and resolves with the client's value", async () => {
		const { bridge, sent } = createBridge();
		const answer = bridge.select("Allow?", ["Allow", "Block"], { timeout: 10000 });
		expect(JSON.stringify(sent[0])).toBe(
			'{"type":"extension_ui_request","id":"ui-1","method":"select","title":"Allow?","options":["Allow","Block"],"timeout":10000}',
		);
		bridge.handleResponse({ type: "extension_ui_response", id: "ui-1", value: "Allow" });
		await expect(answer).resolves.toBe("Allow");
		expect(bridge.pendingCount).toBe(0);
	});

	it("omits undefined fields (no timeout, no placeholder)", () => {
		const { bridge, sent } = createBridge();
		void bridge.input("Name");
		void bridge.confirm("Clear?", "All lost.");
		expect(JSON.stringify(sent[0])).toBe(
			'{"type":"extension_ui_request","id":"ui-1","method":"input","title":"Name"}',
		);
		expect(JSON.stringify(sent[1])).toBe(
			'{"type":"extension_ui_request","id":"ui-2","method":"confirm","title":"Clear?","message":"All lost."}',
		);
	});

	it("resolves confirm with the client's answer and editor with its text", async () => {
		const { bridge } = createBridge();
		const confirmed = bridge.confirm("Sure?", "Really.");
		const edited = bridge.editor("Edit", "prefill");
		bridge.handleResponse({ type: "extension_ui_response", id: "ui-2", value: "new text" });
		bridge.handleResponse({ type: "extension_ui_response", id: "ui-1", confirmed: true });
		await expect(confirmed).resolves.toBe(true);
		await expect(edited).resolves.toBe("new text");
	});

	it("lets cancelled win over a value, and falls back to defaults for answers without the expected key", async () => {
		const { bridge } = createBridge();
		const select = bridge.select("t", ["a"]);
		const confirm = bridge.confirm("t", "m");
		const input = bridge.input("t");
		bridge.handleResponse({ type: "extension_ui_response", id: "ui-1", value: "a", cancelled: true });
		bridge.handleResponse({ type: "extension_ui_response", id: "ui-2", value: "yes" });
		bridge.handleResponse({ type: "extension_ui_response", id: "ui-3", confirmed: true });
		await expect(select).resolves.toBeUndefined();
		await expect(confirm).resolves.toBe(false);
		await expect(input).resolves.toBeUndefined();
	});

	it("resolves the default when the timeout fires, and ignores the late answer", async () => {
		vi.useFakeTimers();
		const { bridge } = createBridge();
		const answer = bridge.confirm("t", "m", { timeout: 50 });
		vi.advanceTimersByTime(50);
		await expect(answer).resolves.toBe(false);
		expect(bridge.pendingCount).toBe(0);
		bridge.handleResponse({ type: "extension_ui_response", id: "ui-1", confirmed: true });
		expect(bridge.pendingCount).toBe(0);
	});

	it("dismisses a dialog when its signal aborts, and sends nothing for an already aborted signal", async () => {
		const { bridge, sent } = createBridge();
		const controller = new AbortController();
		const answer = bridge.select("t", ["a"], { signal: controller.signal });
		controller.abort();
		await expect(answer).resolves.toBeUndefined();
		await expect(bridge.input("t", undefined, { signal: controller.signal })).resolves.toBeUndefined();
		expect(sent).toHaveLength(1);
	});

	it("keeps several dialogs apart by id and ignores unknown ids", async () => {
		const { bridge } = createBridge();
		const first = bridge.input("first");
		const second = bridge.input("second");
		bridge.handleResponse({ type: "extension_ui_response", id: "nope", value: "x" });
		bridge.handleResponse({ type: "extension_ui_response", id: "ui-2", value: "two" });
		bridge.handleResponse({ type: "extension_ui_response", id: "ui-1", value: "one" });
		await expect(Promise.all([first, second])).resolves.toEqual(["one", "two"]);
	});

	it("cancelAll resolves every open dialog with its default", async () => {
		const { bridge } = createBridge();
		const pending = [bridge.select("a", ["x"]), bridge.confirm("b", "c")];
		bridge.cancelAll();
		await expect(Promise.all(pending)).resolves.toEqual([undefined, false]);
	});
});

describe("fire-and-forget requests", () => {
	it("sends notify, setStatus, setTitle and set_editor_text in the wire's shapes", () => {
		const { bridge, sent } = createBridge();
		bridge.notify("hi");
		bridge.notify("careful", "warning");
		bridge.setStatus("k", "busy");
		bridge.setStatus("k", undefined);
		bridge.setTitle("T");
		bridge.setEditorText("draft");
		expect(sent.map((r) => JSON.stringify(r))).toEqual([
			'{"type":"extension_ui_request","id":"ui-1","method":"notify","message":"hi"}',
			'{"type":"extension_ui_request","id":"ui-2","method":"notify","message":"careful","notifyType":"warning"}',
			'{"type":"extension_ui_request","id":"ui-3","method":"setStatus","statusKey":"k","statusText":"busy"}',
			'{"type":"extension_ui_request","id":"ui-4","method":"setStatus","statusKey":"k"}',
			'{"type":"extension_ui_request","id":"ui-5","method":"setTitle","title":"T"}',
			'{"type":"extension_ui_request","id":"ui-6","method":"set_editor_text","text":"draft"}',
		]);
	});

	it("sends string-array widgets and clears, and drops component widgets silently", () => {
		const { bridge, sent } = createBridge();
		bridge.setWidget("w", ["a", "b"], "belowEditor");
		bridge.setWidget("w", () => ({ render: () => [] }));
		bridge.setWidget("w", undefined);
		expect(sent.map((r) => JSON.stringify(r))).toEqual([
			'{"type":"extension_ui_request","id":"ui-1","method":"setWidget","widgetKey":"w","widgetLines":["a","b"],"widgetPlacement":"belowEditor"}',
			'{"type":"extension_ui_request","id":"ui-2","method":"setWidget","widgetKey":"w"}',
		]);
	});
});
