import { JsonlLineSplitter, RPC_COMMAND_TYPES, RpcClient, RpcExtensionUiBridge } from "@agent/coding-agent";
import { describe, expect, it } from "vitest";

describe("the package entry", () => {
	it("exports the RPC client, the framing, the UI bridge and every command type once: the reference's 28, then MCP, the newest reference's, permission modes, sign-in and checkpoints", () => {
		expect(typeof RpcClient).toBe("function");
		expect(typeof JsonlLineSplitter).toBe("function");
		expect(typeof RpcExtensionUiBridge).toBe("function");
		expect(RPC_COMMAND_TYPES).toHaveLength(43);
		expect(new Set(RPC_COMMAND_TYPES).size).toBe(43);
		expect(RPC_COMMAND_TYPES.slice(28)).toEqual([
			"get_mcp_servers",
			"restart_mcp_server",
			"get_available_thinking_levels",
			"clear_queue",
			"get_entries",
			"get_tree",
			"clone",
			"get_permission_mode",
			"set_permission_mode",
			"get_oauth_providers",
			"login",
			"logout",
			"get_checkpoints",
			"restore_checkpoint",
			"navigate_tree",
		]);
	});
});
