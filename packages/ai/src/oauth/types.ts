// Subscription sign-in (OAuth) for the providers that sell model access by subscription rather than by key.
// Types only, so every layer can name them without loading a flow.
import type { Api, Model } from "../types.js";

/** What a login stores (auth.json `{"type":"oauth", ...}` less `type`); providers add fields (projectId, …). */
export type OAuthCredentials = {
	refresh: string;
	access: string;
	/** Epoch ms after which `access` must be refreshed (already less a safety margin). */
	expires: number;
	[key: string]: unknown;
};

export type OAuthProviderId = string;
/** @deprecated Use OAuthProviderId. */
export type OAuthProvider = OAuthProviderId;

export type OAuthPrompt = {
	message: string;
	placeholder?: string;
	/** An empty answer is a valid one (e.g. "blank for github.com"). */
	allowEmpty?: boolean;
};

export type OAuthAuthInfo = {
	/** The page the user opens (authorization page, or device verification page). */
	url: string;
	/** What to do there (the device code to enter, …). */
	instructions?: string;
};

export interface OAuthLoginCallbacks {
	onAuth: (info: OAuthAuthInfo) => void;
	onPrompt: (prompt: OAuthPrompt) => Promise<string>;
	onProgress?: (message: string) => void;
	/**
	 * For flows with a local callback server: resolves with what the user pasted (the redirect URL from the
	 * browser's address bar, or the code), for machines the browser cannot reach. Races the callback.
	 */
	onManualCodeInput?: () => Promise<string>;
	signal?: AbortSignal;
}

export interface OAuthProviderInterface {
	readonly id: OAuthProviderId;
	readonly name: string;
	/** Runs the login flow; resolves with the credentials to store. */
	login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials>;
	/** The flow waits on a local callback server, and takes a pasted redirect URL instead. */
	usesCallbackServer?: boolean;
	/** New credentials for expired ones; throws when the refresh token is no longer accepted. */
	refreshToken(credentials: OAuthCredentials): Promise<OAuthCredentials>;
	/** The key the provider's API takes, from stored credentials. */
	getApiKey(credentials: OAuthCredentials): string;
	/** Adjusts the provider's models for these credentials (e.g. Copilot's per-account base URL). */
	modifyModels?(models: Model<Api>[], credentials: OAuthCredentials): Model<Api>[];
}

/** @deprecated Use OAuthProviderInterface. */
export interface OAuthProviderInfo {
	id: OAuthProviderId;
	name: string;
	available: boolean;
}

export const LOGIN_CANCELLED_MESSAGE = "Login cancelled";
