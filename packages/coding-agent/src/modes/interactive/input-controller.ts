// What happens to submitted editor text, in order: built-in slash commands (even while the
// agent works), `!` / `!!` shell commands, a compaction queue while compacting, steering or follow-up messages
// while the agent works, else a new prompt.
import type { ImageContent } from "@agent/ai";
import type { Container } from "@agent/tui";
import type { BashExecutionMessage } from "../../core/messages.js";
import { parseSlashCommand, parseUserBashCommand } from "../../core/session-runtime/prompt-input.js";
import { type BuiltinCommand, parseBuiltinCommand } from "./commands/builtin-commands.js";
import { BashExecutionComponent } from "./components/bash-execution.js";
import type { ModeHost } from "./mode-host.js";

export const BASH_ALREADY_RUNNING_TEXT = "A bash command is already running. Press Esc to cancel it first.";
export const QUEUED_FOR_COMPACTION_TEXT = "Queued message for after compaction";

export type Delivery = "steer" | "followUp";

interface CompactionQueued {
	text: string;
	delivery: Delivery;
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

export class InputController {
	private compactionQueue: CompactionQueued[] = [];
	private runningBash: BashExecutionComponent | undefined;
	/** `!` commands run while the agent worked: shown above the editor, moved to the transcript when idle. */
	private parkedBash: BashExecutionComponent[] = [];

	constructor(
		private readonly host: ModeHost,
		private readonly commands: readonly BuiltinCommand[],
		private readonly parkedArea: Container,
	) {}

	get isBashRunning(): boolean {
		return this.runningBash !== undefined;
	}

	/** Commands of `!` runs waiting for the agent to finish. */
	get parkedCommands(): string[] {
		return this.parkedBash.map((component) => component.command);
	}

	/** Handles text the user submitted. `followUp` is Alt+Enter (like Enter when the agent is idle). */
	submit(rawText: string, delivery: Delivery = "steer", images?: ImageContent[]): void {
		const text = rawText.trim();
		if (!text && !images?.length) return;
		const { host } = this;
		const builtin = parseBuiltinCommand(text, this.commands);
		if (builtin) {
			void this.runCommand(builtin.command, builtin.args);
			return;
		}
		const bash = parseUserBashCommand(text);
		if (bash) {
			host.editor.addToHistory(text);
			this.runBash(bash.command, bash.excludeFromContext);
			return;
		}
		host.editor.addToHistory(text);
		const { session } = host;
		if (session.isCompacting && !this.isExtensionCommand(text)) {
			this.compactionQueue.push({ text, delivery });
			host.notify("status", QUEUED_FOR_COMPACTION_TEXT);
			return;
		}
		if (session.isStreaming) {
			void this.queue(text, delivery, images);
			return;
		}
		void this.prompt(text, images);
	}

	/** Sends what was queued during compaction: the first message as a prompt, the rest queued behind it. */
	flushCompactionQueue(): void {
		if (this.compactionQueue.length === 0 || this.host.session.isCompacting) return;
		const queued = this.compactionQueue.splice(0);
		const [first, ...rest] = queued;
		if (!first) return;
		if (this.host.session.isStreaming) {
			for (const item of queued) void this.queue(item.text, item.delivery);
			return;
		}
		void this.prompt(first.text);
		for (const item of rest) void this.queue(item.text, item.delivery);
	}

	/** The agent is idle: parked `!` output joins the transcript. */
	unparkBash(): void {
		if (this.parkedBash.length === 0) return;
		for (const component of this.parkedBash.filter((c) => !c.isRunning)) {
			this.parkedArea.removeChild(component);
			this.host.transcript.addChild(component);
		}
		this.parkedBash = this.parkedBash.filter((c) => c.isRunning);
		this.host.refreshPending();
	}

	abortBash(): boolean {
		if (!this.runningBash) return false;
		this.host.session.abortBash();
		return true;
	}

	private isExtensionCommand(text: string): boolean {
		const call = parseSlashCommand(text);
		return call !== undefined && this.host.session.hooks.getCommand(call.name) !== undefined;
	}

	private async runCommand(command: BuiltinCommand, args: string): Promise<void> {
		try {
			await command.run(this.host, args);
		} catch (error) {
			this.host.notify("error", errorText(error));
		}
		this.host.requestRender();
	}

	private async queue(text: string, delivery: Delivery, images?: ImageContent[]): Promise<void> {
		const { host } = this;
		try {
			await host.session.prompt(text, { streamingBehavior: delivery, ...(images ? { images } : {}) });
		} catch (error) {
			host.notifyPromptFailure(error);
		}
		host.refreshPending();
		host.requestRender();
	}

	private async prompt(text: string, images?: ImageContent[]): Promise<void> {
		const { host } = this;
		try {
			await host.session.prompt(text, images ? { images } : {});
		} catch (error) {
			host.notifyPromptFailure(error);
		}
		if (!host.session.isStreaming) host.status.hide();
		host.refreshFooter();
		host.requestRender();
	}

	private runBash(command: string, excludeFromContext: boolean): void {
		const { host } = this;
		if (this.runningBash) {
			host.notify("warning", BASH_ALREADY_RUNNING_TEXT);
			return;
		}
		const component = new BashExecutionComponent(
			host.state,
			command,
			excludeFromContext,
			host.session.settingsManager.getLimits().bashMemoryBytes,
		);
		const parked = host.session.isStreaming;
		if (parked) {
			this.parkedBash.push(component);
			this.parkedArea.addChild(component);
		} else {
			host.transcript.addChild(component);
		}
		this.runningBash = component;
		host.refreshEditorBorder();
		host.requestRender();
		// One step from "running" to "done": the command stops counting as running before its finished block can
		// be drawn, so a command typed once the block shows its end is accepted at once. (Streamed output is no such
		// sign: the block says "Running..." until the shell has exited and its pipes are drained.)
		const settle = (result: Omit<BashExecutionMessage, "role" | "command" | "timestamp">) => {
			if (this.runningBash === component) this.runningBash = undefined;
			component.finish(result);
			if (!host.session.isStreaming) this.unparkBash();
			host.refreshFooter();
			host.requestRender();
		};
		void host.session
			.executeBash(
				command,
				(chunk) => {
					component.appendOutput(chunk);
					host.requestRender();
				},
				{ excludeFromContext },
			)
			.then(
				(result) => settle({ ...result, excludeFromContext }),
				(error: unknown) => settle({ output: errorText(error), cancelled: false, truncated: false, exitCode: 1 }),
			);
	}
}
