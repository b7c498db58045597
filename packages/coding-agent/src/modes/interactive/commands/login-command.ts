// /login and /logout: sign in to a subscription (ChatGPT Plus/Pro, GitHub Copilot, Gemini CLI, Antigravity, or a
// provider an extension registers) with a provider picker; the credentials go to auth.json.
import { LOGIN_CANCELLED_MESSAGE, type OAuthLoginCallbacks } from "@agent/ai";
import { CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT, type OAuthKeyProvider } from "../../../core/config/auth-storage.js";
import { getAuthPath } from "../../../core/config/paths.js";
import type { DialogHost, NoticeHost, SessionHost } from "../mode-host.js";
import { inputDialog, selectDialog } from "../selectors/dialogs.js";
import { refreshModels } from "../selectors/model-selector.js";

export const NO_OAUTH_PROVIDERS_TEXT = "No OAuth providers logged in. Use /login first.";
export const LOGIN_PICKER_TITLE = "Sign in with a subscription";
export const CLAUDE_PICKER_LABEL = "Claude Pro/Max (not supported)";
export const PASTE_REDIRECT_TITLE =
	"Browser on another machine? Paste the URL it ends up on (or finish signing in there)";
export const WAITING_TITLE = "Waiting for the sign-in in the browser";
const CANCEL_LABEL = "Cancel sign-in";

/** A provider as the /login picker lists it. */
export function oauthProviderLabel(provider: Pick<OAuthKeyProvider, "name">, signedIn: boolean): string {
	return `${provider.name}${signedIn ? " ✓ logged in" : ""}`;
}

async function pickProvider(
	host: NoticeHost & SessionHost & DialogHost,
	args: string,
): Promise<OAuthKeyProvider | undefined> {
	const auth = host.session.modelRegistry.authStorage;
	const providers = auth.getOAuthProviders();
	const wanted = args.trim();
	if (wanted === "anthropic") {
		host.notify("warning", CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT);
		return undefined;
	}
	if (wanted) {
		const provider = auth.getOAuthProvider(wanted);
		if (!provider)
			host.notify(
				"error",
				`Unknown login provider "${wanted}". Available: ${providers.map((p) => p.id).join(", ")}`,
			);
		return provider;
	}
	const labels = providers.map((provider) => oauthProviderLabel(provider, auth.get(provider.id)?.type === "oauth"));
	const choice = await selectDialog(host, LOGIN_PICKER_TITLE, [...labels, CLAUDE_PICKER_LABEL]);
	if (choice === CLAUDE_PICKER_LABEL) {
		host.notify("warning", CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT);
		return undefined;
	}
	return choice === undefined ? undefined : providers[labels.indexOf(choice)];
}

/** Answers from a dialog; closing it (Esc) cancels the whole login. */
async function ask(host: DialogHost, abort: AbortController, title: string, placeholder?: string): Promise<string> {
	const value = await inputDialog(host, title, placeholder, { signal: abort.signal });
	if (value === undefined) {
		abort.abort();
		throw new Error(LOGIN_CANCELLED_MESSAGE);
	}
	return value;
}

export async function runLogin(host: NoticeHost & SessionHost & DialogHost, args = ""): Promise<void> {
	const provider = await pickProvider(host, args);
	if (!provider) return;
	const auth = host.session.modelRegistry.authStorage;
	const abort = new AbortController();
	const callbacks: OAuthLoginCallbacks = {
		onAuth: ({ url, instructions }) => {
			host.notify(
				"info",
				`Open this page to sign in to ${provider.name}:\n${url}${instructions ? `\n${instructions}` : ""}`,
			);
			// Flows without a paste field (device codes) wait in the background: this dialog is their cancel button.
			if (!provider.usesCallbackServer) {
				void selectDialog(host, WAITING_TITLE, [CANCEL_LABEL], { signal: abort.signal }).then((choice) => {
					if (choice === CANCEL_LABEL || (choice === undefined && !abort.signal.aborted)) abort.abort();
				});
			}
		},
		onPrompt: ({ message, placeholder }) => ask(host, abort, message, placeholder),
		onProgress: (message) => host.notify("status", message),
		...(provider.usesCallbackServer ? { onManualCodeInput: () => ask(host, abort, PASTE_REDIRECT_TITLE) } : {}),
		signal: abort.signal,
	};
	try {
		await auth.login(provider.id, callbacks);
		refreshModels(host);
		host.notify("status", `Logged in to ${provider.name}. Credentials saved to ${getAuthPath(host.agentDir)}`);
	} catch (error) {
		if (abort.signal.aborted) host.notify("info", LOGIN_CANCELLED_MESSAGE);
		else
			host.notify(
				"error",
				`Login to ${provider.name} failed: ${error instanceof Error ? error.message : String(error)}`,
			);
	} finally {
		abort.abort();
	}
}

export async function runLogout(host: NoticeHost & SessionHost & DialogHost, args = ""): Promise<void> {
	const auth = host.session.modelRegistry.authStorage;
	const signedIn = auth.listOAuth();
	if (signedIn.length === 0) {
		host.notify("info", NO_OAUTH_PROVIDERS_TEXT);
		return;
	}
	const provider = args.trim() || (await selectDialog(host, "Log out of", signedIn));
	if (!provider) return;
	if (!signedIn.includes(provider)) {
		host.notify("error", `Not logged in to ${provider}`);
		return;
	}
	try {
		auth.logout(provider);
	} catch (error) {
		host.notify("error", error instanceof Error ? error.message : String(error));
		return;
	}
	refreshModels(host);
	host.notify("status", `Logged out of ${provider}`);
}
