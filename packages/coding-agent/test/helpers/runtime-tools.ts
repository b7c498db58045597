// Small tools for session tests: they count executions and can be held open.
import type { AgentTool } from "@agent/agent-core";
import { Type } from "@agent/ai";

export interface CountingTool extends AgentTool {
	executions: Record<string, unknown>[];
}

/** A tool named `name` that records each call's arguments and answers `result`; `gate` holds it open. */
export function createCountingTool(
	name = "probe",
	options: { result?: string; gate?: () => Promise<void> } = {},
): CountingTool {
	const executions: Record<string, unknown>[] = [];
	return {
		name,
		label: name,
		description: `Test tool ${name}`,
		parameters: Type.Object({ value: Type.Optional(Type.String()) }),
		executions,
		async execute(_id, params) {
			executions.push(params as Record<string, unknown>);
			if (options.gate) await options.gate();
			return { content: [{ type: "text", text: options.result ?? `${name} done` }], details: {} };
		},
	};
}
