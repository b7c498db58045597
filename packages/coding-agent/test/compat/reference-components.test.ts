// The reference's interactive components, constructed as extensions written for it construct them, render our
// transcript's drawing: each is checked by rendering it to lines.
import { FauxProvider, fauxText, getModel } from "@agent/ai";
import {
	AssistantMessageComponent,
	AuthStorage,
	BashExecutionComponent,
	BranchSummaryMessageComponent,
	CompactionSummaryMessageComponent,
	CustomMessageComponent,
	createAgentSession,
	FooterComponent,
	type ReadonlyFooterDataProvider,
	renderDiff,
	SessionManager,
	ToolExecutionComponent,
	UserMessageComponent,
} from "@agent/coding-agent";
import { stripAnsi, Text, type TUI } from "@agent/tui";
import { describe, expect, it } from "vitest";
import { assistantMessage } from "../helpers/interactive-display.js";

const plain = (lines: string[]) => stripAnsi(lines.join("\n"));
// The components keep the TUI only to ask for renders; none of these tests needs one.
const ui = {} as TUI;

describe("message components", () => {
	it("AssistantMessageComponent shows text and thinking, and hides thinking when asked", () => {
		const message = assistantMessage([
			{ type: "thinking", thinking: "Let me think about tabs." },
			{ type: "text", text: "Use **tabs**." },
		]);
		const component = new AssistantMessageComponent(message);
		expect(plain(component.render(60))).toContain("Let me think about tabs.");
		expect(plain(component.render(60))).toContain("Use tabs.");
		component.setHideThinkingBlock(true);
		const hidden = plain(component.render(60));
		expect(hidden).not.toContain("Let me think about tabs.");
		expect(hidden).toContain("Thinking...");
		component.updateContent(assistantMessage([{ type: "text", text: "Changed." }]));
		expect(plain(component.render(60))).toContain("Changed.");
	});

	it("UserMessageComponent shows the text", () => {
		expect(plain(new UserMessageComponent("Refactor the parser").render(60))).toContain("Refactor the parser");
	});

	it("CustomMessageComponent uses the renderer it is given, else its type and content", () => {
		const message = {
			role: "custom" as const,
			customType: "reminder",
			content: "Tests live in test/",
			display: true,
			timestamp: 0,
		};
		expect(plain(new CustomMessageComponent(message).render(60))).toMatch(/\[reminder\][\s\S]*Tests live in test\//);
		const expandedSeen: boolean[] = [];
		const custom = new CustomMessageComponent(message, (_message, options) => {
			expandedSeen.push(options.expanded);
			return new Text("drawn by the extension");
		});
		expect(plain(custom.render(60))).toContain("drawn by the extension");
		custom.setExpanded(true);
		custom.render(60);
		expect(expandedSeen).toEqual([false, true]);
	});

	it("summary components are collapsed until expanded", () => {
		const compaction = new CompactionSummaryMessageComponent({
			role: "compactionSummary",
			summary: "The user asked for tabs.",
			tokensBefore: 1050,
			timestamp: 0,
		});
		expect(plain(compaction.render(60))).toContain("Compacted from 1,050 tokens");
		expect(plain(compaction.render(60))).not.toContain("The user asked for tabs.");
		compaction.setExpanded(true);
		expect(plain(compaction.render(60))).toContain("The user asked for tabs.");

		const branch = new BranchSummaryMessageComponent({
			role: "branchSummary",
			summary: "Tried spaces first.",
			fromId: "abc",
			timestamp: 0,
		});
		expect(plain(branch.render(60))).toContain("[branch]");
		branch.setExpanded(true);
		expect(plain(branch.render(60))).toContain("Tried spaces first.");
	});
});

describe("execution components", () => {
	it("ToolExecutionComponent draws a built-in tool's call and result", () => {
		const tool = new ToolExecutionComponent("bash", { command: "ls -la" }, undefined, undefined, ui, "/tmp");
		expect(plain(tool.render(80))).toContain("ls -la");
		tool.setArgsComplete();
		tool.updateResult({ content: [{ type: "text", text: "file-a\nfile-b" }], isError: false });
		const done = plain(tool.render(80));
		expect(done).toContain("file-a");
		expect(done).toContain("file-b");
	});

	it("ToolExecutionComponent uses the renderers of the tool definition it is given", () => {
		const tool = new ToolExecutionComponent(
			"deploy",
			{ target: "staging" },
			{ showImages: false },
			{
				name: "deploy",
				label: "Deploy",
				description: "Deploys",
				parameters: { type: "object", properties: {} } as never,
				execute: async () => ({ content: [], details: undefined }),
				renderCall: (args) => new Text(`deploying to ${String((args as { target: string }).target)}`),
			},
			ui,
		);
		expect(plain(tool.render(80))).toContain("deploying to staging");
	});

	it("BashExecutionComponent streams output and reports the exit code", () => {
		const bash = new BashExecutionComponent("make test", ui);
		bash.appendOutput("compiling\n");
		bash.appendOutput("1 failed\n");
		expect(plain(bash.render(80))).toContain("Running...");
		bash.setComplete(2, false);
		const done = plain(bash.render(80));
		expect(done).toContain("$ make test");
		expect(done).toContain("1 failed");
		expect(done).toContain("(exit 2)");
		expect(bash.getOutput()).toBe("compiling\n1 failed\n");
		expect(bash.getCommand()).toBe("make test");
	});
});

describe("renderDiff", () => {
	it("returns the edit diff's lines, styled, as one string", () => {
		const text = renderDiff(" 1 keep\n-2 old word\n+2 new word");
		expect(text).toContain("\x1b[");
		expect(stripAnsi(text).split("\n")).toEqual([" 1 keep", "-2 old word", "+2 new word"]);
	});
});

describe("FooterComponent", () => {
	it("shows the session's model and the provider's branch and statuses", async () => {
		const faux = new FauxProvider();
		faux.enqueue(fauxText("ok"));
		const { session } = await createAgentSession({
			model: getModel("anthropic", "claude-sonnet-4-5"),
			authStorage: AuthStorage.inMemory({ anthropic: { type: "api_key", key: "sk-test" } }, {}),
			sessionManager: SessionManager.inMemory("/tmp/project"),
			streamFn: faux.stream,
		});
		try {
			const footerData: ReadonlyFooterDataProvider = {
				getGitBranch: () => "feature/tabs",
				getExtensionStatuses: () => new Map([["ci", "CI green"]]),
				getAvailableProviderCount: () => 1,
				onBranchChange: () => () => {},
			};
			const footer = new FooterComponent(session, footerData);
			const lines = plain(footer.render(120));
			expect(lines).toContain("(feature/tabs)");
			expect(lines).toContain("claude-sonnet-4-5");
			expect(lines).toContain("CI green");
			footer.setAutoCompactEnabled(false);
			footer.dispose();
		} finally {
			session.dispose();
		}
	});
});
