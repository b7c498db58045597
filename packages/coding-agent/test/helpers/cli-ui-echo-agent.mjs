// A stand-in for `agent --mode rpc` that exercises the extension-UI plumbing end to end: each `prompt` names a
// UI method; the agent asks the client through the real RpcExtensionUiBridge (from the build) and reports the
// result as a `ui_result` event. Used by rpc-client-extension-ui.test.ts until extensions can be loaded.
import { RpcExtensionUiBridge } from "../../dist/modes/rpc/extension-ui-bridge.js";
import { JsonlLineSplitter, serializeJsonLine } from "../../dist/modes/rpc/jsonl.js";

const write = (record) => process.stdout.write(serializeJsonLine(record));
const notificationIds = new Set();
const bridge = new RpcExtensionUiBridge((request) => {
	if (!["select", "confirm", "input", "editor"].includes(request.method)) notificationIds.add(request.id);
	write(request);
});

async function runDialog(method) {
	switch (method) {
		case "select":
			return bridge.select("Pick one", ["a", "b"]);
		case "select-timeout":
			return bridge.select("Quick", ["a", "b"], { timeout: 50 });
		case "confirm":
			return bridge.confirm("Sure?", "This cannot be undone.");
		case "input":
			return bridge.input("Name", "your name");
		case "editor":
			return bridge.editor("Edit", "draft");
		case "notify":
			bridge.notify("heads up", "warning");
			return "sent";
		default:
			return `unknown method ${method}`;
	}
}

const splitter = new JsonlLineSplitter((line) => {
	const record = JSON.parse(line);
	if (record.type === "extension_ui_response") {
		if (notificationIds.has(record.id)) write({ type: "unexpected_response", id: record.id });
		bridge.handleResponse(record);
		return;
	}
	write({ id: record.id, type: "response", command: record.type, success: true });
	if (record.type === "prompt") {
		void runDialog(record.message).then((result) =>
			write({ type: "ui_result", method: record.message, result: result === undefined ? null : result }),
		);
	}
});
process.stdin.on("data", (chunk) => splitter.push(chunk));
process.stdin.on("end", () => {
	splitter.end();
	bridge.cancelAll();
});
