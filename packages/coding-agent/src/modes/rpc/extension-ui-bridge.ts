// Extension UI calls in RPC mode (docs/rpc.md "Extension UI"): dialogs become `extension_ui_request` records answered by
// `extension_ui_response` lines; notifications are fire-and-forget. Timeouts and abort signals are enforced
// here, agent-side: the dialog resolves with its default and a late answer is ignored.
import { randomUUID } from "node:crypto";
import type {
	RpcExtensionUiDialogRequest,
	RpcExtensionUiRequest,
	RpcExtensionUiResponse,
	RpcNotifyType,
	RpcWidgetPlacement,
} from "./protocol.js";

export interface DialogOptions {
	/** Dismisses the dialog (resolving the default) when aborted; an already aborted signal sends nothing. */
	signal?: AbortSignal;
	/** Milliseconds; sent to the client and enforced here. */
	timeout?: number;
}

interface PendingDialog {
	resolve(response: RpcExtensionUiResponse | undefined): void;
}

/** Request fields without the envelope; `undefined` values are dropped before sending. */
type DialogFields = RpcExtensionUiDialogRequest extends infer R
	? R extends RpcExtensionUiDialogRequest
		? Omit<R, "type" | "id">
		: never
	: never;
type NotificationFields =
	Exclude<RpcExtensionUiRequest, RpcExtensionUiDialogRequest> extends infer R
		? R extends RpcExtensionUiRequest
			? Omit<R, "type" | "id">
			: never
		: never;

function withoutUndefined<T extends object>(value: T): T {
	for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
	return value;
}

export class RpcExtensionUiBridge {
	private readonly pending = new Map<string, PendingDialog>();

	constructor(
		private readonly send: (request: RpcExtensionUiRequest) => void,
		private readonly createId: () => string = randomUUID,
	) {}

	/** Dialogs waiting for the client. */
	get pendingCount(): number {
		return this.pending.size;
	}

	async select(title: string, options: string[], opts: DialogOptions = {}): Promise<string | undefined> {
		const response = await this.dialog({ method: "select", title, options, timeout: opts.timeout }, opts);
		return response && !response.cancelled && typeof response.value === "string" ? response.value : undefined;
	}

	async confirm(title: string, message: string, opts: DialogOptions = {}): Promise<boolean> {
		const response = await this.dialog({ method: "confirm", title, message, timeout: opts.timeout }, opts);
		return response !== undefined && !response.cancelled && response.confirmed === true;
	}

	async input(title: string, placeholder?: string, opts: DialogOptions = {}): Promise<string | undefined> {
		const response = await this.dialog({ method: "input", title, placeholder, timeout: opts.timeout }, opts);
		return response && !response.cancelled && typeof response.value === "string" ? response.value : undefined;
	}

	/** No timeout support (the protocol's `editor` has none); a signal still dismisses it. */
	async editor(
		title: string,
		prefill?: string,
		opts: Pick<DialogOptions, "signal"> = {},
	): Promise<string | undefined> {
		const response = await this.dialog({ method: "editor", title, prefill }, opts);
		return response && !response.cancelled && typeof response.value === "string" ? response.value : undefined;
	}

	notify(message: string, notifyType?: RpcNotifyType): void {
		this.notification({ method: "notify", message, notifyType });
	}

	setStatus(statusKey: string, statusText: string | undefined): void {
		this.notification({ method: "setStatus", statusKey, statusText });
	}

	/** Only string-array content crosses the wire; anything else (a TUI component factory) is dropped. */
	setWidget(widgetKey: string, content: unknown, placement?: RpcWidgetPlacement): void {
		if (content === undefined) {
			this.notification({ method: "setWidget", widgetKey, widgetPlacement: placement });
			return;
		}
		if (!Array.isArray(content) || !content.every((line) => typeof line === "string")) return;
		this.notification({ method: "setWidget", widgetKey, widgetLines: content, widgetPlacement: placement });
	}

	setTitle(title: string): void {
		this.notification({ method: "setTitle", title });
	}

	/** Also what `pasteToEditor` sends. */
	setEditorText(text: string): void {
		this.notification({ method: "set_editor_text", text });
	}

	/** An `extension_ui_response` line. Unknown or late ids are ignored. */
	handleResponse(response: RpcExtensionUiResponse): void {
		const dialog = this.pending.get(response.id);
		if (!dialog) return;
		this.pending.delete(response.id);
		dialog.resolve(response);
	}

	/** Resolves every open dialog with its default (shutdown: the client is gone). */
	cancelAll(): void {
		const dialogs = [...this.pending.values()];
		this.pending.clear();
		for (const dialog of dialogs) dialog.resolve(undefined);
	}

	private dialog(fields: DialogFields, opts: DialogOptions): Promise<RpcExtensionUiResponse | undefined> {
		if (opts.signal?.aborted) return Promise.resolve(undefined);
		const id = this.createId();
		return new Promise((resolve) => {
			let timer: NodeJS.Timeout | undefined;
			const onAbort = () => finish(undefined);
			const finish = (response: RpcExtensionUiResponse | undefined) => {
				if (timer) clearTimeout(timer);
				opts.signal?.removeEventListener("abort", onAbort);
				this.pending.delete(id);
				resolve(response);
			};
			this.pending.set(id, { resolve: finish });
			if (opts.timeout !== undefined && opts.timeout > 0) timer = setTimeout(() => finish(undefined), opts.timeout);
			opts.signal?.addEventListener("abort", onAbort, { once: true });
			this.send(withoutUndefined({ type: "extension_ui_request", id, ...fields }) as RpcExtensionUiRequest);
		});
	}

	private notification(fields: NotificationFields): void {
		this.send(
			withoutUndefined({ type: "extension_ui_request", id: this.createId(), ...fields }) as RpcExtensionUiRequest,
		);
	}
}
