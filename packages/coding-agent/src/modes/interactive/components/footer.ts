// The footer below the editor: where you are (cwd, git branch, session name), what the session cost (tokens in
// and out, cache reads and writes, dollars), how full the context is, and the model with its thinking level;
// then any extension statuses. It re-renders only when one of these figures changes.
import { CachedComponent, truncateToWidth, visibleWidth } from "@agent/tui";
import type { DisplayState } from "../display-state.js";
import { formatTokenCount, shortenPath } from "./render-utils.js";

export interface FooterData {
	cwd: string;
	gitBranch?: string;
	sessionName?: string;
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
	/** USD */
	cost: number;
	/** Context usage: percent of the window (null right after a compaction, until the next reply). */
	contextPercent?: number | null;
	contextWindow?: number;
	autoCompaction: boolean;
	modelId?: string;
	provider?: string;
	/** Shown for reasoning models only. */
	thinkingLevel?: string;
	/** Extension statuses, in key order. */
	statuses: string[];
	/** Ours: the permission mode (docs/permissions.md). */
	permissionMode?: string;
}

export const NO_MODEL_TEXT = "no model";

function sameData(a: FooterData, b: FooterData): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

export function formatCost(cost: number): string {
	if (cost === 0) return "$0.000";
	return cost < 1 ? `$${cost.toFixed(3)}` : `$${cost.toFixed(2)}`;
}

export class FooterComponent extends CachedComponent {
	private data: FooterData;

	constructor(
		private readonly state: DisplayState,
		data: FooterData,
	) {
		super();
		this.data = data;
	}

	getData(): FooterData {
		return this.data;
	}

	setData(data: FooterData): void {
		if (sameData(data, this.data)) return;
		this.data = data;
		this.markChanged();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.state;
		const data = this.data;
		const dim = theme.fgStyle("dim");

		let location = shortenPath(data.cwd);
		if (data.gitBranch) location += ` (${data.gitBranch})`;
		if (data.sessionName) location += ` • ${data.sessionName}`;
		const lines = [this.withPermissionMode(dim(location), width)];

		const figures: string[] = [];
		const { input, output, cacheRead, cacheWrite } = data.tokens;
		if (input) figures.push(`↑${formatTokenCount(input)}`);
		if (output) figures.push(`↓${formatTokenCount(output)}`);
		if (cacheRead) figures.push(`R${formatTokenCount(cacheRead)}`);
		if (cacheWrite) figures.push(`W${formatTokenCount(cacheWrite)}`);
		if (data.cost > 0 || input || output) figures.push(formatCost(data.cost));
		let left = dim(figures.join(" "));
		if (data.contextWindow) {
			const percent = data.contextPercent;
			const usage = `${percent === null || percent === undefined ? "?" : percent.toFixed(1)}%/${formatTokenCount(data.contextWindow)}${data.autoCompaction ? " (auto)" : ""}`;
			const style =
				percent !== null && percent !== undefined && percent > 90
					? theme.fgStyle("error")
					: percent !== null && percent !== undefined && percent > 70
						? theme.fgStyle("warning")
						: dim;
			left += (figures.length > 0 ? " " : "") + style(usage);
		}

		const model = data.modelId ?? NO_MODEL_TEXT;
		const thinking = data.thinkingLevel
			? ` • ${data.thinkingLevel === "off" ? "thinking off" : data.thinkingLevel}`
			: "";
		let right = `${model}${thinking}`;
		const withProvider = data.provider ? `(${data.provider}) ${right}` : right;
		const leftWidth = visibleWidth(left);
		if (leftWidth + 2 + visibleWidth(withProvider) <= width) right = withProvider;
		const rightWidth = visibleWidth(right);
		if (leftWidth + 2 + rightWidth <= width) {
			lines.push(left + " ".repeat(width - leftWidth - rightWidth) + dim(right));
		} else if (leftWidth + 2 < width) {
			lines.push(`${left}  ${dim(truncateToWidth(right, width - leftWidth - 2))}`);
		} else {
			lines.push(truncateToWidth(left, width));
		}

		if (data.statuses.length > 0) lines.push(truncateToWidth(data.statuses.join(" "), width));
		return lines;
	}

	/** The location line with the permission mode at its right end (in colour unless it is the default). */
	private withPermissionMode(location: string, width: number): string {
		const mode = this.data.permissionMode;
		if (!mode) return truncateToWidth(location, width);
		const { theme } = this.state;
		const label = `permissions: ${mode}`;
		const style =
			mode === "yolo"
				? theme.fgStyle("error")
				: mode === "default"
					? theme.fgStyle("dim")
					: theme.fgStyle("warning");
		const room = width - visibleWidth(label) - 2;
		if (room < 10) return truncateToWidth(location, width);
		const left = truncateToWidth(location, room);
		return left + " ".repeat(width - visibleWidth(left) - visibleWidth(label)) + style(label);
	}
}
