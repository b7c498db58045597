import { JsonlLineSplitter, RPC_COMMAND_TYPES, RpcClient, RpcExtensionUiBridge } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";

describe("the package entry", () => {
	it("exports the RPC client, the framing, the UI bridge and the reference's 28 command types, the two MCP commands, the five of the newest reference, the two permission-mode commands and the three sign-in commands", () => {
		expect(typeof RpcClient).toBe("function");
		expect(typeof JsonlLineSplitter).toBe("function");
		expect(typeof RpcExtensionUiBridge).toBe("function");
		expect(RPC_COMMAND_TYPES).toHaveLength(40);
		expect(new Set(RPC_COMMAND_TYPES).size).toBe(40);
	});
});
