// The transcript components under the reference's names and constructors, for extensions and programs written
// for it. Each is our component with a display state of its own: the theme on screen (getCurrentTheme), default
// key bindings, collapsed output. Nothing here draws: the drawing is the component it extends.
import type { AssistantMessage, ImageContent, TextContent } from "@agent/ai";
import type { MarkdownTheme, TUI } from "@agent/tui";
import type { AgentSession } from "../../../core/agent-session.js";
import { DEFAULT_CODE_BLOCK_INDENT } from "../../../core/config/settings-manager.js";
import type { MessageRenderer, ToolDefinition } from "../../../core/extensions/types.js";
import type { FooterData } from "../../../core/extensions/ui-context.js";
import type { BranchSummaryMessage, CompactionSummaryMessage, CustomMessage } from "../../../core/messages.js";
import type { TruncationResult } from "../../../core/tools/truncate.js";
import type { DisplayState } from "../display-state.js";
import { collectFooterFigures } from "../footer-figures.js";
import { AppKeybindings } from "../keybindings.js";
import { getCurrentTheme } from "../theme/current-theme.js";
import type { Theme } from "../theme/theme.js";
import { AssistantMessageComponent as TranscriptAssistantMessage } from "./assistant-message.js";
import { BashExecutionComponent as TranscriptBashExecution } from "./bash-execution.js";
import { CustomMessageComponent as TranscriptCustomMessage } from "./custom-message.js";
import { type FooterFigures, FooterComponent as TranscriptFooter } from "./footer.js";
import { SummaryMessageComponent } from "./summary-message.js";
import { ToolExecutionComponent as TranscriptToolExecution } from "./tool-execution.js";
import { UserMessageComponent as TranscriptUserMessage } from "./user-message.js";

/**
 * A display state for one component outside the interactive mode. `markdownTheme` is accepted for the
 * reference's signatures; the markdown is styled by the theme on screen, like the rest of the component.
 */
export function ownDisplayState(fields: Partial<Omit<DisplayState, "theme">> = {}): DisplayState {
	return {
		get theme(): Theme {
			return getCurrentTheme();
		},
		toolsExpanded: false,
		hideThinking: false,
		keybindings: new AppKeybindings(),
		cwd: process.cwd(),
		codeBlockIndent: DEFAULT_CODE_BLOCK_INDENT,
		showImages: true,
		...fields,
	};
}

/** An assistant reply: `new AssistantMessageComponent(message?, hideThinkingBlock?, markdownTheme?)`. */
export class AssistantMessageComponent extends TranscriptAssistantMessage {
	private readonly ownState: DisplayState;

	constructor(message?: AssistantMessage, hideThinkingBlock = false, _markdownTheme?: MarkdownTheme) {
		const state = ownDisplayState({ hideThinking: hideThinkingBlock });
		super(state, message);
		this.ownState = state;
	}

	setHideThinkingBlock(hide: boolean): void {
		this.ownState.hideThinking = hide;
		this.invalidate();
	}

	updateContent(message: AssistantMessage): void {
		this.update(message);
	}
}

/** A user's message: `new UserMessageComponent(text, markdownTheme?)`. */
export class UserMessageComponent extends TranscriptUserMessage {
	constructor(text: string, _markdownTheme?: MarkdownTheme) {
		super(ownDisplayState(), text);
	}
}

/** An extension's message, drawn by `customRenderer` when given: `new CustomMessageComponent(message, renderer?)`. */
export class CustomMessageComponent extends TranscriptCustomMessage {
	private readonly ownState: DisplayState;

	constructor(message: CustomMessage<unknown>, customRenderer?: MessageRenderer, _markdownTheme?: MarkdownTheme) {
		const state = ownDisplayState({
			extensionRenderers: {
				toolDefinition: () => undefined,
				messageRenderer: (customType) => (customType === message.customType ? customRenderer : undefined),
			},
		});
		super(state, message);
		this.ownState = state;
	}

	setExpanded(expanded: boolean): void {
		this.ownState.toolsExpanded = expanded;
		this.invalidate();
	}
}

/** A branch summary, collapsed until `setExpanded(true)`. */
export class BranchSummaryMessageComponent extends SummaryMessageComponent {
	private readonly ownState: DisplayState;

	constructor(message: BranchSummaryMessage, _markdownTheme?: MarkdownTheme) {
		const state = ownDisplayState();
		super(state, "branch", message.summary);
		this.ownState = state;
	}

	setExpanded(expanded: boolean): void {
		this.ownState.toolsExpanded = expanded;
		this.invalidate();
	}
}

/** A compaction summary, collapsed until `setExpanded(true)`. */
export class CompactionSummaryMessageComponent extends SummaryMessageComponent {
	private readonly ownState: DisplayState;

	constructor(message: CompactionSummaryMessage, _markdownTheme?: MarkdownTheme) {
		const state = ownDisplayState();
		super(state, "compaction", message.summary, message.tokensBefore);
		this.ownState = state;
	}

	setExpanded(expanded: boolean): void {
		this.ownState.toolsExpanded = expanded;
		this.invalidate();
	}
}

export interface ToolExecutionOptions {
	showImages?: boolean;
}

/** A tool result as the reference's `updateResult` takes it (content blocks of any type; text and images shown). */
export interface ToolExecutionResultInput {
	content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
	details?: unknown;
	isError: boolean;
}

let referenceToolCalls = 0;

/**
 * A tool call and its result:
 * `new ToolExecutionComponent(toolName, args, options, toolDefinition, ui, cwd?)`, drawn by the tool's
 * renderers when `toolDefinition` has them, else by the built-in renderer of its name.
 */
export class ToolExecutionComponent extends TranscriptToolExecution {
	private readonly ownState: DisplayState;
	private currentArgs: Record<string, unknown>;

	constructor(
		toolName: string,
		args: Record<string, unknown>,
		options: ToolExecutionOptions | undefined,
		toolDefinition: ToolDefinition | undefined,
		_ui: TUI,
		cwd: string = process.cwd(),
	) {
		const state = ownDisplayState({
			cwd,
			showImages: options?.showImages ?? true,
			extensionRenderers: {
				toolDefinition: (name) => (name === toolName ? toolDefinition : undefined),
				messageRenderer: () => undefined,
			},
		});
		referenceToolCalls += 1;
		super(state, `tool-${referenceToolCalls}`, toolName, args);
		this.ownState = state;
		this.currentArgs = args;
	}

	override updateArgs(args: Record<string, unknown>, complete = false): void {
		this.currentArgs = args;
		super.updateArgs(args, complete);
	}

	/** The arguments are complete: the tool is about to run. */
	setArgsComplete(): void {
		this.markRunning(this.currentArgs);
	}

	updateResult(result: ToolExecutionResultInput, isPartial = false): void {
		const content: (TextContent | ImageContent)[] = [];
		for (const block of result.content) {
			if (block.type === "text") content.push({ type: "text", text: block.text ?? "" });
			else if (block.type === "image" && block.data !== undefined && block.mimeType !== undefined)
				content.push({ type: "image", data: block.data, mimeType: block.mimeType });
		}
		const converted = { content, details: result.details };
		if (isPartial) this.setPartialResult(converted);
		else this.setResult(converted, result.isError);
	}

	setExpanded(expanded: boolean): void {
		this.ownState.toolsExpanded = expanded;
		this.invalidate();
	}

	setShowImages(show: boolean): void {
		this.ownState.showImages = show;
		this.invalidate();
	}
}

/** A user's `!` command and its streamed output: `new BashExecutionComponent(command, ui, excludeFromContext?)`. */
export class BashExecutionComponent extends TranscriptBashExecution {
	private readonly ownState: DisplayState;

	constructor(command: string, _ui: TUI, excludeFromContext = false) {
		const state = ownDisplayState();
		super(state, command, excludeFromContext);
		this.ownState = state;
	}

	setExpanded(expanded: boolean): void {
		this.ownState.toolsExpanded = expanded;
		this.invalidate();
	}

	setComplete(
		exitCode: number | undefined,
		cancelled: boolean,
		truncationResult?: TruncationResult,
		fullOutputPath?: string,
	): void {
		this.finish({
			output: this.getOutput(),
			exitCode,
			cancelled,
			truncated: truncationResult?.truncated ?? false,
			...(fullOutputPath !== undefined ? { fullOutputPath } : {}),
		});
	}

	getCommand(): string {
		return this.command;
	}
}

/** What the reference's footer reads besides the session (ours: the `FooterData` custom footers get). */
export type ReadonlyFooterDataProvider = FooterData;

/**
 * The footer of a session: `new FooterComponent(session, footerData)`. It reads the session's figures and the
 * provider's git branch and statuses each time it renders.
 */
export class FooterComponent extends TranscriptFooter {
	private autoCompactEnabled: boolean | undefined;

	constructor(
		private readonly session: AgentSession,
		private readonly footerData: ReadonlyFooterDataProvider,
	) {
		super(ownDisplayState(), FooterComponent.figures(session, footerData, undefined));
	}

	private static figures(
		session: AgentSession,
		footerData: ReadonlyFooterDataProvider,
		autoCompactEnabled: boolean | undefined,
	): FooterFigures {
		const statuses = [...footerData.getExtensionStatuses().values()];
		const figures = collectFooterFigures(session, footerData.getGitBranch() ?? undefined, statuses);
		return autoCompactEnabled === undefined ? figures : { ...figures, autoCompaction: autoCompactEnabled };
	}

	setAutoCompactEnabled(enabled: boolean): void {
		this.autoCompactEnabled = enabled;
	}

	override render(width: number): string[] {
		this.setData(FooterComponent.figures(this.session, this.footerData, this.autoCompactEnabled));
		return super.render(width);
	}

	dispose(): void {}
}
