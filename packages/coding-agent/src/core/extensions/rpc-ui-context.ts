// `ctx.ui` in RPC mode (docs/rpc.md "Extension UI"): dialogs and fire-and-forget calls become `extension_ui_request` records
// through the mode's transport (the RPC extension-UI bridge, which enforces timeouts agent-side); the
// TUI-only methods are degraded.
//
// The reference degraded `custom()` silently: the client never learned that an extension asked the user
// something it could not show, and the extension could not tell that from a dismissal. Here `custom()`
// also sends a `notify` warning naming what was dropped, and every degraded return is documented
// (docs/extensions.md "UI", docs/rpc.md "Extension UI").
import {
	createNoopUIContext,
	type DialogOptions,
	type ExtensionUIContext,
	type NotifyType,
	type WidgetPlacement,
} from "./ui-context.js";

/** What the RPC mode's extension-UI bridge offers (structurally: this module does not import modes). */
export interface RpcUiTransport {
	select(title: string, options: string[], opts?: DialogOptions): Promise<string | undefined>;
	confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean>;
	input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined>;
	editor(title: string, prefill?: string, opts?: Pick<DialogOptions, "signal">): Promise<string | undefined>;
	notify(message: string, notifyType?: NotifyType): void;
	setStatus(statusKey: string, statusText: string | undefined): void;
	/** Only string arrays (or undefined, to clear) cross the wire; the transport drops anything else. */
	setWidget(widgetKey: string, content: unknown, placement?: WidgetPlacement): void;
	setTitle(title: string): void;
	setEditorText(text: string): void;
}

export const RPC_THEME_UNSUPPORTED_TEXT = "Theme switching not supported in RPC mode";

export const RPC_CUSTOM_UI_UNAVAILABLE_TEXT =
	"An extension requested a custom UI component, which RPC mode cannot show; the extension received no result.";

/**
 * The RPC binding. `hasUI` is true in RPC mode: dialogs reach the client, which may answer, cancel, or let
 * them time out.
 */
export function createRpcUIContext(transport: RpcUiTransport): ExtensionUIContext {
	const degraded = createNoopUIContext();
	return {
		...degraded,
		select: (title, options, opts) => transport.select(title, options, opts),
		confirm: (title, message, opts) => transport.confirm(title, message, opts),
		input: (title, placeholder, opts) => transport.input(title, placeholder, opts),
		editor: (title, prefill) => transport.editor(title, prefill),
		notify: (message, type) => transport.notify(message, type),
		setStatus: (key, text) => transport.setStatus(key, text),
		setWidget: (key, content, options) => transport.setWidget(key, content, options?.placement),
		setTitle: (title) => transport.setTitle(title),
		setEditorText: (text) => transport.setEditorText(text),
		pasteToEditor: (text) => transport.setEditorText(text),
		custom: async () => {
			transport.notify(RPC_CUSTOM_UI_UNAVAILABLE_TEXT, "warning");
			return undefined;
		},
		setTheme: () => ({ success: false, error: RPC_THEME_UNSUPPORTED_TEXT }),
	};
}
