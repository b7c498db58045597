// Plan mode: the model may only read (read, grep, find, ls) until the user approves its plan. `/plan` enters
// plan mode; `/plan` again approves the plan, restores the tools and asks the model to carry it out.
// `--plan` starts in plan mode. The mode is stored in the session, so a resumed session keeps it.
import type { ExtensionAPI, ExtensionContext } from "@agent/coding-agent";

export const READ_ONLY_TOOLS = ["read", "grep", "find", "ls"];

const PLAN_MODE_PROMPT = [
	"",
	"You are in plan mode. Explore the code with the read-only tools and reply with a numbered plan of the",
	"changes. Do not change files and do not run commands: the user approves the plan first.",
].join("\n");

const EXECUTE_PLAN_TEXT = "The plan is approved. Carry it out step by step.";

interface PlanState {
	enabled: boolean;
	/** The tools that were active before plan mode, restored on approval. */
	previousTools: string[];
}

export default function planMode(pi: ExtensionAPI): void {
	pi.registerFlag("plan", { description: "Start in plan mode (read-only tools until /plan)", type: "boolean" });
	let state: PlanState = { enabled: false, previousTools: [] };

	const showStatus = (ctx: ExtensionContext) => {
		ctx.ui.setStatus("plan-mode", state.enabled ? "plan mode: read-only until /plan" : undefined);
	};

	const enter = (ctx: ExtensionContext) => {
		state = { enabled: true, previousTools: pi.getActiveTools() };
		pi.setActiveTools(READ_ONLY_TOOLS);
		pi.appendEntry<PlanState>("plan-mode", state);
		showStatus(ctx);
	};

	const approve = (ctx: ExtensionContext) => {
		pi.setActiveTools(state.previousTools);
		state = { enabled: false, previousTools: [] };
		pi.appendEntry<PlanState>("plan-mode", state);
		showStatus(ctx);
	};

	pi.on("session_start", (_event, ctx) => {
		// The last plan-mode entry of this branch says whether we are still planning.
		const saved = ctx.sessionManager
			.getBranch()
			.filter((entry) => entry.type === "custom" && entry.customType === "plan-mode")
			.at(-1);
		if (saved?.type === "custom" && (saved.data as PlanState | undefined)?.enabled) {
			state = saved.data as PlanState;
			pi.setActiveTools(READ_ONLY_TOOLS);
			showStatus(ctx);
		} else if (pi.getFlag("plan") === true) {
			enter(ctx);
		}
	});

	pi.on("before_agent_start", (event) => {
		if (!state.enabled) return undefined;
		return { systemPrompt: event.systemPrompt + PLAN_MODE_PROMPT };
	});

	// Belt and braces: even if another extension re-enables a tool, nothing but reading runs while planning.
	pi.on("tool_call", (event) => {
		if (!state.enabled || READ_ONLY_TOOLS.includes(event.toolName)) return undefined;
		return {
			block: true,
			reason: `Plan mode: "${event.toolName}" is not available until the user approves the plan.`,
		};
	});

	pi.on("agent_end", (_event, ctx) => {
		if (state.enabled) ctx.ui.notify("Plan ready. Type /plan to approve it and let the agent carry it out.", "info");
	});

	pi.registerCommand("plan", {
		description: "Enter plan mode, or approve the plan and carry it out",
		handler: async (_args, ctx) => {
			if (!state.enabled) {
				enter(ctx);
				ctx.ui.notify("Plan mode: the agent can only read until you type /plan again.", "info");
				return;
			}
			approve(ctx);
			pi.sendUserMessage(EXECUTE_PLAN_TEXT);
		},
	});
}
