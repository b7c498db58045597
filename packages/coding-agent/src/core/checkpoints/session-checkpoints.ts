// File checkpoints of one AgentSession (docs/checkpoints.md): the tools and the user's commands are recorded
// through it, their changes are written as `file_checkpoint` entries just before the entries that report them,
// and files are restored to any point of the session tree: on `/tree`, `/fork`, `/undo`, RPC and SDK calls.
import type { AgentMessage, AgentTool } from "@agent/agent-core";
import type { SettingsManager } from "../config/settings-manager.js";
import type { BashExecutionMessage } from "../messages.js";
import type {
	FileCheckpointChange,
	FileCheckpointSource,
	FileCheckpointState,
	SessionEntry,
} from "../session/entries.js";
import type { SessionManager } from "../session/session-manager.js";
import type { ForkOptions, ForkResult, NavigateTreeOptions, NavigateTreeResult } from "../session-runtime/events.js";
import { userMessageText } from "../session-runtime/prompt-input.js";
import { isInsideDir, realpathOfNearestExisting, resolveToCwd } from "../tools/path-utils.js";
import {
	type CheckpointHistory,
	isFileCheckpointEntry,
	lastRecordedStates,
	readCheckpointHistory,
	statesAt,
} from "./checkpoint-history.js";
import { CheckpointStores } from "./checkpoint-stores.js";
import {
	applyRestore,
	describeConflict,
	planRestore,
	type RestoreAction,
	type RestoreIo,
	summarizeRestore,
} from "./file-restore.js";
import { blobOf } from "./file-state.js";
import { CheckpointRecorder } from "./recorder.js";
import type { CheckpointSummary, FileChangeKind, FileRestoreOptions, FileRestoreResult, UndoResult } from "./types.js";

/** Keys of the user's commands; tool calls are keyed by their call id. */
const USER_COMMAND_KEY_PREFIX = "user-command:";

export function storeFullNotice(maxBytes: number): string {
	const size = maxBytes >= 1024 * 1024 ? `${(maxBytes / (1024 * 1024)).toFixed(0)} MiB` : `${maxBytes} bytes`;
	return `File checkpoints: this session's store reached its limit of ${size} (checkpoints.maxSessionBytes). Contents are no longer kept; files changed from now on cannot be restored.`;
}

export interface CheckpointHost {
	readonly cwd: string;
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	/** Tells the session's listeners (`checkpoint_notice`). */
	notice(message: string): void;
}

/** Runs a user's command (`!cmd`, RPC `bash`) as a checkpoint window and ties its changes to its message. */
export interface CommandRecorder {
	record<T>(run: () => Promise<T>): Promise<{ value: T; key: string }>;
	attach(message: BashExecutionMessage, key: string): void;
}

export interface RestoreToOptions extends FileRestoreOptions {
	/** Only these paths (`/undo`: what the turn changed). */
	onlyPaths?: ReadonlySet<string>;
	/** The history to read states from (default: the session's entries now). */
	history?: CheckpointHistory;
}

/**
 * Where `/undo` starts looking back from: the leaf, or — when the branch's latest checkpoint is a restore to an
 * earlier point of it (a previous `/undo`) — that point, so each `/undo` goes one turn further back.
 */
function undoStart(branch: readonly SessionEntry[]): number {
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry = branch[i] as SessionEntry;
		if (!isFileCheckpointEntry(entry)) continue;
		if (entry.source !== "restore" || entry.restoredTo === undefined) return branch.length - 1;
		if (entry.restoredTo === null) return -1;
		const index = branch.findIndex((candidate) => candidate.id === entry.restoredTo);
		return index >= 0 && index < i ? index : branch.length - 1;
	}
	return branch.length - 1;
}

/** Where the leaf goes when navigating to `target` (docs/session-format.md "The tree"): before a user or extension message. */
export function positionAfterNavigating(target: SessionEntry): string | null {
	if (target.type === "custom_message") return target.parentId;
	if (target.type === "message" && target.message.role === "user") return target.parentId;
	return target.id;
}

function changeKind(change: FileCheckpointChange): FileChangeKind {
	if (change.before === null) return "created";
	if (change.after === null) return "deleted";
	return "modified";
}

function isDirectoryChange(change: FileCheckpointChange): boolean {
	const isDir = (state: FileCheckpointState) => state !== null && "dir" in state;
	return isDir(change.before) || isDir(change.after);
}

export class SessionCheckpoints {
	readonly recorder: CheckpointRecorder;
	private readonly stores: CheckpointStores;
	private readonly commandKeys = new WeakMap<object, string>();
	private commandCount = 0;
	private excludedCache: { file: string | undefined; paths: Set<string> } | undefined;
	/** The current session's file (undefined: in memory), and every content its entries refer to. */
	private sessionFile: string | undefined;
	private referenced = new Set<string>();

	constructor(private readonly host: CheckpointHost) {
		this.stores = new CheckpointStores(
			() => host.sessionManager.getSessionFile(),
			() => host.settingsManager.getCheckpointSettings().maxSessionBytes,
		);
		this.recorder = new CheckpointRecorder({
			cwd: host.cwd,
			limits: () => host.settingsManager.getCheckpointSettings(),
			store: () => this.stores.current(),
			excluded: () => this.excludedPaths(),
			notice: (message) => host.notice(message),
		});
		this.sessionChanged();
	}

	get enabled(): boolean {
		return this.host.settingsManager.getCheckpointSettings().enabled;
	}

	/** Starts indexing the working tree in the background (the first prompt does this). */
	prepare(): void {
		if (this.enabled) this.recorder.prepare();
	}

	/** The tool with its calls recorded: edit and write exactly, bash as a window. Other tools as they are. */
	wrapTool<T extends AgentTool>(tool: T): T {
		const { name } = tool;
		if (name !== "edit" && name !== "write" && name !== "bash") return tool;
		const execute: AgentTool["execute"] = (toolCallId, params, signal, onUpdate) => {
			const run = () => tool.execute(toolCallId, params, signal, onUpdate);
			if (!this.enabled) return run();
			if (name === "bash") return this.recorder.recordCommand(toolCallId, "bash", run);
			const path = (params as { path?: unknown } | undefined)?.path;
			if (typeof path !== "string") return run();
			return this.recorder.recordFileWrite(toolCallId, name, resolveToCwd(path, this.host.cwd), run);
		};
		return { ...tool, execute };
	}

	readonly commands: CommandRecorder = {
		record: async (run) => {
			const key = `${USER_COMMAND_KEY_PREFIX}${++this.commandCount}`;
			if (!this.enabled) return { value: await run(), key };
			return { value: await this.recorder.recordCommand(key, "user_bash", run), key };
		},
		attach: (message, key) => {
			this.commandKeys.set(message, key);
		},
	};

	/** Called just before a message is appended to the session: the changes it reports come first. */
	beforeRecordMessage(message: AgentMessage): void {
		let key: string | undefined;
		if (message.role === "toolResult") key = message.toolCallId;
		else if (message.role === "bashExecution") key = this.commandKeys.get(message);
		if (key === undefined) return;
		const released = this.recorder.release(key);
		if (!released) return;
		const toolCallIds = released.keys.filter((id) => !id.startsWith(USER_COMMAND_KEY_PREFIX));
		this.append(released.source, released.files, { toolCallIds });
	}

	/** After the session file changed (new, resumed, forked): its store, its sequence, its inherited contents. */
	sessionChanged(options: { keepPending?: boolean } = {}): void {
		const { sessionManager } = this.host;
		if (!options.keepPending) this.recorder.dropPending();
		const file = sessionManager.getSessionFile();
		if (file) this.stores.noteSessionFile(file);
		this.excludedCache = undefined;
		const entries = sessionManager.getEntries();
		const history = readCheckpointHistory(entries);
		this.recorder.continueSequenceFrom(history.maxSeq + 1);
		this.stores.handOver(this.sessionFile, this.referenced);
		this.sessionFile = file;
		this.referenced = contentsReferencedBy(history);
		if (history.byPath.size === 0) return;
		// A fork's history refers to contents of the session it came from: copied now, so it stands alone.
		const parent = sessionManager.getHeader().parentSession;
		if (parent) this.stores.ofSessionFile(parent);
		this.stores.importAll(this.referenced);
	}

	/** The checkpoints on the current branch, oldest first. */
	list(): CheckpointSummary[] {
		const summaries: CheckpointSummary[] = [];
		for (const entry of this.host.sessionManager.getBranch()) {
			if (!isFileCheckpointEntry(entry)) continue;
			summaries.push({
				entryId: entry.id,
				timestamp: entry.timestamp,
				source: entry.source,
				...(entry.toolCallIds ? { toolCallIds: [...entry.toolCallIds] } : {}),
				files: entry.files
					.filter((change) => !isDirectoryChange(change))
					.map((change) => ({ path: change.path, change: changeKind(change) })),
			});
		}
		return summaries;
	}

	/**
	 * Puts the files back as they were at `pointId` (null: before the first entry). A file changed outside the
	 * agent since it last recorded it is a conflict: then nothing is written unless `force`. What is written is
	 * recorded as a `file_checkpoint` entry at the current leaf.
	 */
	restoreTo(pointId: string | null, options: RestoreToOptions = {}): FileRestoreResult {
		const history = options.history ?? readCheckpointHistory(this.host.sessionManager.getEntries());
		let targets = statesAt(history, pointId);
		const { onlyPaths } = options;
		if (onlyPaths) targets = new Map([...targets].filter(([path]) => onlyPaths.has(path)));
		const expected = lastRecordedStates(history);
		const io = this.restoreIo();
		const plan = planRestore(targets, expected, io);
		const diffs = plan.conflicts.map((conflict) => ({
			path: conflict.path,
			diff: describeConflict(conflict.path, conflict.expected, conflict.current, io),
		}));
		const withDiffs = (result: FileRestoreResult) => (diffs.length > 0 ? { ...result, diffs } : result);
		if (plan.conflicts.length > 0 && !options.force) return withDiffs(summarizeRestore([], plan));
		const actions: RestoreAction[] = [
			...plan.actions,
			...plan.conflicts.map((conflict) => ({
				path: conflict.path,
				current: conflict.current,
				target: targets.get(conflict.path) ?? null,
			})),
		];
		if (options.dryRun) return withDiffs(summarizeRestore(actions, plan));
		for (const action of actions) this.recorder.markInFlight(action.path);
		try {
			const { applied, failed } = applyRestore(actions, io);
			for (const action of applied) this.recorder.noteWritten(action.path, action.target);
			if (applied.length > 0) {
				this.append(
					"restore",
					applied.map((action) => ({
						path: action.path,
						before: action.current,
						after: action.target,
						seq: this.recorder.nextSeq(),
					})),
					{ restoredTo: pointId },
				);
			}
			return withDiffs(summarizeRestore(applied, plan, failed));
		} finally {
			for (const action of actions) this.recorder.unmarkInFlight(action.path);
		}
	}

	/**
	 * `/undo`: the files changed by the last turn that changed any (from its user message to the leaf) go back
	 * to how they were before it. The conversation stays; the restore is recorded at the leaf, so a second
	 * `/undo` goes one turn further back.
	 */
	undo(options: FileRestoreOptions = {}): UndoResult {
		const branch = this.host.sessionManager.getBranch();
		const changedAfter = new Set<string>();
		for (let i = undoStart(branch); i >= 0; i--) {
			const entry = branch[i] as SessionEntry;
			if (isFileCheckpointEntry(entry)) for (const change of entry.files) changedAfter.add(change.path);
			if (entry.type !== "message" || entry.message.role !== "user" || changedAfter.size === 0) continue;
			const onlyPaths = changedAfter;
			const plan = this.restoreTo(entry.parentId, { ...options, dryRun: true, onlyPaths });
			const hasWork =
				plan.restored.length + plan.removed.length + plan.conflicts.length + plan.unrestorable.length > 0;
			if (!hasWork) continue;
			const result = options.dryRun ? plan : this.restoreTo(entry.parentId, { ...options, onlyPaths });
			return { ...result, turnEntryId: entry.id };
		}
		return { restored: [], removed: [], conflicts: [], unrestorable: [] };
	}

	/**
	 * What restoring files along with a move to `targetId` would do (a dry run); undefined for an unknown entry.
	 * For `/tree` to ask whether to restore at all.
	 */
	previewNavigation(targetId: string): FileRestoreResult | undefined {
		const target = this.host.sessionManager.getEntry(targetId);
		return target ? this.restoreTo(positionAfterNavigating(target), { dryRun: true }) : undefined;
	}

	/** What restoring files along with a fork at the user message `entryId` would do (a dry run). */
	previewFork(entryId: string): FileRestoreResult | undefined {
		const entry = this.host.sessionManager.getEntry(entryId);
		return entry ? this.restoreTo(entry.parentId, { dryRun: true }) : undefined;
	}

	/**
	 * Tree navigation that also restores files (`restoreFiles`): conflicts are looked for first, and with any
	 * (without `forceRestore`) nothing happens; otherwise `navigate` moves the leaf and the files follow it.
	 */
	async navigateTree(
		targetId: string,
		options: NavigateTreeOptions,
		navigate: (options: NavigateTreeOptions) => Promise<NavigateTreeResult>,
	): Promise<NavigateTreeResult> {
		const { sessionManager } = this.host;
		const target = sessionManager.getEntry(targetId);
		if (!options.restoreFiles || !target) return navigate(options);
		const force = options.forceRestore === true;
		const preview = this.restoreTo(positionAfterNavigating(target), { dryRun: true, force });
		if (preview.conflicts.length > 0 && !force) return { cancelled: true, files: preview };
		const result = await navigate(options);
		if (result.cancelled) return result;
		return { ...result, files: this.restoreTo(sessionManager.getLeafId(), { force }) };
	}

	/** `/fork` that also restores files to how they were before the selected message (see `navigateTree`). */
	async fork(entryId: string, options: ForkOptions, fork: () => Promise<ForkResult>): Promise<ForkResult> {
		const { sessionManager } = this.host;
		const entry = sessionManager.getEntry(entryId);
		if (!options.restoreFiles || entry?.type !== "message" || entry.message.role !== "user") return fork();
		const force = options.forceRestore === true;
		// The new session has only the branch up to the message: what the agent last recorded of each file (for
		// conflicts) is known from this one.
		const history = readCheckpointHistory(sessionManager.getEntries());
		const preview = this.restoreTo(entry.parentId, { dryRun: true, force, history });
		if (preview.conflicts.length > 0 && !force) {
			return { selectedText: userMessageText(entry.message.content), cancelled: true, files: preview };
		}
		const result = await fork();
		if (result.cancelled) return result;
		return { ...result, files: this.restoreTo(entry.parentId, { force, history }) };
	}

	/**
	 * Releases watches. The session's store drops the contents of the working tree's baseline that no entry refers
	 * to, so a session keeps only what it can restore (docs/checkpoints.md); stores of sessions never written go.
	 */
	dispose(): void {
		this.recorder.dispose();
		this.stores.releaseScratch(this.referenced);
		this.stores.dispose();
	}

	private append(
		source: FileCheckpointSource,
		files: FileCheckpointChange[],
		options: { toolCallIds?: string[]; restoredTo?: string | null } = {},
	): void {
		this.stores.adopt(files);
		this.host.sessionManager.appendFileCheckpoint(source, files, options);
		for (const hash of contentsOf(files)) this.referenced.add(hash);
		if (this.stores.reportFullOnce()) {
			this.host.notice(storeFullNotice(this.host.settingsManager.getCheckpointSettings().maxSessionBytes));
		}
	}

	private restoreIo(): RestoreIo {
		return {
			paths: this.recorder.paths,
			maxFileBytes: this.host.settingsManager.getCheckpointSettings().maxFileBytes,
			readBlob: (hash) => this.stores.read(hash),
			hasBlob: (hash) => this.stores.has(hash),
			knownState: (path) => this.recorder.knownState(path),
		};
	}

	/** The session file, its lock and store, and its directory: never part of what a scan records. */
	private excludedPaths(): ReadonlySet<string> {
		const file = this.host.sessionManager.getSessionFile();
		const cached = this.excludedCache;
		if (cached && cached.file === file) return cached.paths;
		const paths = new Set<string>([realpathOfNearestExisting(this.stores.currentDir())]);
		if (file) {
			const real = realpathOfNearestExisting(file);
			paths.add(real);
			paths.add(`${real}.lock`);
			const dir = realpathOfNearestExisting(this.host.sessionManager.getSessionDir());
			// The session folder, when it is inside the working tree (not the tree itself: `--session ./file.jsonl`).
			const root = this.recorder.paths.root;
			if (dir !== root && isInsideDir(dir, root)) paths.add(dir);
		}
		this.excludedCache = { file, paths };
		return paths;
	}
}

/** Every stored content the recorded changes refer to, before and after. */
function contentsReferencedBy(history: CheckpointHistory): Set<string> {
	const hashes = new Set<string>();
	for (const changes of history.byPath.values()) for (const hash of contentsOf(changes)) hashes.add(hash);
	return hashes;
}

function* contentsOf(changes: Iterable<FileCheckpointChange>): Generator<string> {
	for (const change of changes) {
		for (const state of [change.before, change.after]) {
			const hash = blobOf(state);
			if (hash) yield hash;
		}
	}
}
