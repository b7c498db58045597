import { JsonlLineSplitter, RPC_COMMAND_TYPES, RpcClient, RpcExtensionUiBridge } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";

describe("the package entry", () => {
	it("exports the RPC client, the framing, the UI bridge and the 28 command types of rpc.md plus the two MCP commands and the three checkpoint and tree commands", () => {
		expect(typeof RpcClient).toBe("function");
		expect(typeof JsonlLineSplitter).toBe("function");
		expect(typeof RpcExtensionUiBridge).toBe("function");
		expect(RPC_COMMAND_TYPES).toHaveLength(33);
		expect(new Set(RPC_COMMAND_TYPES).size).toBe(33);
		expect(RPC_COMMAND_TYPES.slice(30)).toEqual(["get_checkpoints", "restore_checkpoint", "navigate_tree"]);
	});
});
