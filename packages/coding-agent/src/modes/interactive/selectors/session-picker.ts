// The session picker (`/resume`, `agent -r`): sessions of this folder or of all projects (Tab), in threaded,
// recent or best-match order (Ctrl+S), named-only (Ctrl+N), with paths (Ctrl+P); rename (Ctrl+R) and delete
// (Ctrl+D, or Ctrl+Backspace with an empty search) in place.
import { CachedComponent, getEditorKeybindings, Input, matchesKey, truncateToWidth, visibleWidth } from "@agent/tui";
import type { SessionInfo } from "../../../core/session/entries.js";
import { formatAge, shortenPath } from "../components/render-utils.js";
import type { DisplayState } from "../display-state.js";
import type { AppKeybindings } from "../keybindings.js";
import { dropLastCharacter, typedText } from "./input-keys.js";
import {
	buildSessionRows,
	SESSION_SORTS,
	type SessionRow,
	type SessionSort,
	sessionTitle,
} from "./session-list-model.js";

export type SessionScope = "current" | "all";

export interface SessionPickerOptions {
	state: DisplayState;
	keybindings: AppKeybindings;
	loadSessions(scope: SessionScope): Promise<SessionInfo[]>;
	/** The open session (it cannot be deleted). */
	currentSessionPath?: string;
	onSelect(session: SessionInfo): void;
	onCancel(): void;
	/** Names a session; throws with a message to show. */
	rename(session: SessionInfo, name: string): Promise<void>;
	/** Deletes a session file; throws with a message to show. */
	remove(session: SessionInfo): Promise<void>;
	requestRender(): void;
	maxVisible?: number;
}

type PickerMode =
	| { kind: "list" }
	| { kind: "rename"; input: Input; session: SessionInfo }
	| { kind: "delete"; session: SessionInfo };

const SCOPE_LABELS: Record<SessionScope, string> = { current: "Current Folder", all: "All" };

export class SessionPicker extends CachedComponent {
	private scope: SessionScope = "current";
	private readonly loaded = new Map<SessionScope, SessionInfo[]>();
	private loading = new Set<SessionScope>();
	private query = "";
	private sort: SessionSort = "threaded";
	private namedOnly = false;
	private showPath = false;
	private selected = 0;
	private rows: SessionRow[] = [];
	private queryError: string | undefined;
	private message: { text: string; isError: boolean } | undefined;
	private mode: PickerMode = { kind: "list" };

	constructor(private readonly options: SessionPickerOptions) {
		super();
		void this.load("current");
	}

	/** Resolves once the current scope's sessions are loaded (tests). */
	async ready(): Promise<void> {
		await this.load(this.scope);
	}

	getRows(): readonly SessionRow[] {
		return this.rows;
	}

	getSelectedSession(): SessionInfo | undefined {
		return this.rows[this.selected]?.session;
	}

	setSort(sort: SessionSort): void {
		this.sort = sort;
		this.refreshRows();
	}

	setNamedOnly(namedOnly: boolean): void {
		this.namedOnly = namedOnly;
		this.refreshRows();
	}

	handleInput(data: string): void {
		if (this.mode.kind === "rename") {
			this.handleRenameInput(this.mode, data);
			return;
		}
		if (this.mode.kind === "delete") {
			this.handleDeleteInput(this.mode, data);
			return;
		}
		const keys = getEditorKeybindings();
		const app = this.options.keybindings;
		const count = this.rows.length;
		const page = this.options.maxVisible ?? 10;
		this.message = undefined;
		if (keys.matches(data, "selectUp")) this.select(count === 0 ? 0 : (this.selected - 1 + count) % count);
		else if (keys.matches(data, "selectDown")) this.select(count === 0 ? 0 : (this.selected + 1) % count);
		else if (keys.matches(data, "selectPageUp")) this.select(Math.max(0, this.selected - page));
		else if (keys.matches(data, "selectPageDown")) this.select(Math.min(count - 1, this.selected + page));
		else if (keys.matches(data, "selectConfirm")) {
			const row = this.rows[this.selected];
			if (row) this.options.onSelect(row.session);
		} else if (keys.matches(data, "selectCancel")) this.options.onCancel();
		else if (keys.matches(data, "tab")) this.setScope(this.scope === "current" ? "all" : "current");
		else if (keys.matches(data, "toggleSessionSort"))
			this.setSort(SESSION_SORTS[(SESSION_SORTS.indexOf(this.sort) + 1) % SESSION_SORTS.length]);
		else if (app.matches(data, "toggleSessionNamedFilter")) this.setNamedOnly(!this.namedOnly);
		else if (keys.matches(data, "toggleSessionPath")) {
			this.showPath = !this.showPath;
			this.markChanged();
		} else if (matchesKey(data, "ctrl+r")) this.startRename();
		else if (
			keys.matches(data, "deleteSession") ||
			(keys.matches(data, "deleteSessionNoninvasive") && this.query.length === 0)
		)
			this.startDelete();
		else if (matchesKey(data, "backspace")) {
			if (this.query.length > 0) this.setQuery(dropLastCharacter(this.query));
		} else {
			const text = typedText(data);
			if (text !== undefined) this.setQuery(this.query + text);
		}
		this.markChanged();
	}

	protected renderLines(width: number): string[] {
		const { theme } = this.options.state;
		const rule = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		const scopes = (["current", "all"] as const)
			.map((scope) =>
				scope === this.scope
					? theme.fg("accent", `[${SCOPE_LABELS[scope]}]`)
					: theme.fg("dim", SCOPE_LABELS[scope]),
			)
			.join(" ");
		const flags = [`sort: ${this.sort}`, ...(this.namedOnly ? ["named only"] : [])].join(" · ");
		const lines = [
			rule,
			truncateToWidth(` ${theme.bold("Resume session")}  ${scopes}  ${theme.fg("dim", flags)}`, width),
		];
		lines.push(truncateToWidth(` ${theme.fg("dim", ">")} ${this.query}${theme.inverse(" ")}`, width));
		if (this.queryError) lines.push(truncateToWidth(theme.fg("error", ` Invalid regex: ${this.queryError}`), width));
		if (this.loading.has(this.scope) && !this.loaded.has(this.scope)) {
			lines.push(theme.fg("muted", "  Loading sessions..."));
		} else if (this.rows.length === 0) {
			lines.push(theme.fg("muted", "  No sessions found"));
		} else {
			lines.push(...this.renderRows(width));
		}
		if (this.mode.kind === "rename") {
			lines.push(
				truncateToWidth(
					theme.fg("accent", ` Rename "${sessionTitle(this.mode.session)}" (Enter to save, Esc to cancel):`),
					width,
				),
			);
			lines.push(...this.mode.input.render(width));
		} else if (this.mode.kind === "delete") {
			lines.push(truncateToWidth(theme.fg("warning", ` Delete "${sessionTitle(this.mode.session)}"? (y/N)`), width));
		}
		if (this.message)
			lines.push(
				truncateToWidth(theme.fg(this.message.isError ? "error" : "muted", ` ${this.message.text}`), width),
			);
		lines.push(
			truncateToWidth(
				theme.fg(
					"dim",
					" Tab scope · Ctrl+S sort · Ctrl+N named · Ctrl+P path · Ctrl+R rename · Ctrl+D delete · Enter open · Esc cancel",
				),
				width,
			),
		);
		lines.push(rule);
		return lines;
	}

	private renderRows(width: number): string[] {
		const { theme } = this.options.state;
		const visible = Math.max(1, this.options.maxVisible ?? 10);
		const first = Math.max(0, Math.min(this.selected - Math.floor(visible / 2), this.rows.length - visible));
		const lines: string[] = [];
		const now = Date.now();
		for (let i = first; i < Math.min(this.rows.length, first + visible); i++) {
			const { session, depth } = this.rows[i];
			const isSelected = i === this.selected;
			const prefix = isSelected ? theme.fg("accent", "› ") : "  ";
			const indent = depth > 0 ? `${"  ".repeat(depth - 1)}└ ` : "";
			const right = theme.fg(
				"dim",
				`${formatAge(session.modified, now)}  ${session.messageCount} msg${session.messageCount === 1 ? "" : "s"}`,
			);
			const rightWidth = visibleWidth(right);
			const isCurrent = session.path === this.options.currentSessionPath;
			let title = indent + sessionTitle(session) + (isCurrent ? " (current)" : "");
			const available = Math.max(4, width - 2 - rightWidth - 2);
			title = truncateToWidth(title, available);
			const styledTitle = isSelected ? theme.bold(title) : session.name ? theme.fg("accent", title) : title;
			const gap = Math.max(1, width - 2 - visibleWidth(title) - rightWidth);
			lines.push(truncateToWidth(prefix + styledTitle + " ".repeat(gap) + right, width));
			if (this.showPath) {
				const where = this.scope === "all" && session.cwd ? `${shortenPath(session.cwd)} · ` : "";
				lines.push(truncateToWidth(theme.fg("dim", `    ${where}${shortenPath(session.path)}`), width));
			}
		}
		if (this.rows.length > visible) lines.push(theme.fg("dim", `  (${this.selected + 1}/${this.rows.length})`));
		return lines;
	}

	private async load(scope: SessionScope, force = false): Promise<void> {
		if (!force && (this.loaded.has(scope) || this.loading.has(scope))) return;
		this.loading.add(scope);
		this.markChanged();
		try {
			this.loaded.set(scope, await this.options.loadSessions(scope));
		} catch (error) {
			this.loaded.set(scope, []);
			this.message = { text: error instanceof Error ? error.message : String(error), isError: true };
		} finally {
			this.loading.delete(scope);
		}
		if (scope === this.scope) this.refreshRows();
		this.markChanged();
		this.options.requestRender();
	}

	private setScope(scope: SessionScope): void {
		this.scope = scope;
		this.selected = 0;
		this.refreshRows();
		void this.load(scope);
	}

	private setQuery(query: string): void {
		this.query = query;
		this.selected = 0;
		this.refreshRows();
	}

	private select(index: number): void {
		this.selected = Math.max(0, Math.min(index, this.rows.length - 1));
	}

	private refreshRows(): void {
		const result = buildSessionRows(this.loaded.get(this.scope) ?? [], {
			query: this.query,
			sort: this.sort,
			namedOnly: this.namedOnly,
		});
		this.rows = result.rows;
		this.queryError = result.error;
		this.select(this.selected);
		this.markChanged();
	}

	private startRename(): void {
		const row = this.rows[this.selected];
		if (!row) return;
		const input = new Input();
		input.setValue(row.session.name ?? "");
		input.focused = true;
		this.mode = { kind: "rename", input, session: row.session };
	}

	private handleRenameInput(mode: Extract<PickerMode, { kind: "rename" }>, data: string): void {
		if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.mode = { kind: "list" };
		} else if (matchesKey(data, "enter")) {
			const name = mode.input.getValue().trim();
			this.mode = { kind: "list" };
			if (name) {
				this.options.rename(mode.session, name).then(
					() => {
						this.message = { text: `Renamed to "${name}"`, isError: false };
						void this.reloadAll();
					},
					(error: unknown) => this.showError(error),
				);
			}
		} else {
			mode.input.handleInput(data);
		}
		this.markChanged();
	}

	private startDelete(): void {
		const row = this.rows[this.selected];
		if (!row) return;
		if (row.session.path === this.options.currentSessionPath) {
			this.message = { text: "The current session cannot be deleted.", isError: true };
			return;
		}
		this.mode = { kind: "delete", session: row.session };
	}

	private handleDeleteInput(mode: Extract<PickerMode, { kind: "delete" }>, data: string): void {
		this.mode = { kind: "list" };
		if (data === "y" || data === "Y") {
			this.options.remove(mode.session).then(
				() => {
					this.message = { text: "Session deleted", isError: false };
					void this.reloadAll();
				},
				(error: unknown) => this.showError(error),
			);
		}
		this.markChanged();
	}

	private async reloadAll(): Promise<void> {
		const scopes = [...this.loaded.keys()];
		this.loaded.clear();
		for (const scope of scopes) await this.load(scope, true);
	}

	private showError(error: unknown): void {
		this.message = { text: error instanceof Error ? error.message : String(error), isError: true };
		this.markChanged();
		this.options.requestRender();
	}
}
