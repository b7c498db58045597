// /login and /logout in the terminal UI: the provider picker, Claude's refusal, a sign-in whose redirect URL is
// pasted, and logging out.
import { afterEach, describe, expect, it } from "vitest";
import { CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT } from "../../src/core/config/auth-storage.js";
import {
	CLAUDE_PICKER_LABEL,
	LOGIN_PICKER_TITLE,
	PASTE_REDIRECT_TITLE,
} from "../../src/modes/interactive/commands/login-command.js";
import { createInteractiveHarness, type InteractiveHarness, KEYS } from "../helpers/interactive-harness.js";

let harness: InteractiveHarness | undefined;
afterEach(async () => {
	await harness?.dispose();
	harness = undefined;
});

describe("/login", () => {
	it("offers the subscription providers and says Claude subscriptions are not supported", async () => {
		harness = await createInteractiveHarness({ columns: 160 });
		await harness.submit("/login");
		await harness.waitForText(LOGIN_PICKER_TITLE);
		for (const name of [
			"ChatGPT Plus/Pro (Codex Subscription)",
			"GitHub Copilot",
			"Google Cloud Code Assist (Gemini CLI)",
			"Antigravity (Gemini 3, Claude, GPT-OSS)",
			CLAUDE_PICKER_LABEL,
		]) {
			expect(harness.screen().join("\n")).toContain(name);
		}
		// The Claude entry is the last one.
		await harness.press(KEYS.up);
		await harness.press(KEYS.enter);
		await harness.waitForText("Anthropic does not allow third-party clients");
		expect(CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT).toContain("Anthropic does not allow third-party clients");
	});

	it("shows the sign-in page, takes the pasted redirect URL, stores the sign-in, and /logout removes it", async () => {
		harness = await createInteractiveHarness({ columns: 160 });
		const auth = harness.runtime.session.modelRegistry.authStorage;
		auth.registerOAuthProvider({
			id: "openai-codex",
			name: "ChatGPT Plus/Pro (Codex Subscription)",
			usesCallbackServer: true,
			async login(callbacks) {
				callbacks.onAuth({ url: "https://auth.example.test/authorize?state=s1", instructions: "Sign in there." });
				const pasted = await callbacks.onManualCodeInput?.();
				return { access: `token-for-${pasted}`, refresh: "r", expires: Date.now() + 3_600_000 };
			},
			refreshToken: async (credentials) => credentials,
			getApiKey: (credentials) => credentials.access,
		});
		await harness.submit("/login openai-codex");
		await harness.waitForText("https://auth.example.test/authorize?state=s1");
		await harness.waitForText(PASTE_REDIRECT_TITLE.slice(0, 40));
		await harness.submit("pasted-url");
		await harness.waitForText("Logged in to ChatGPT Plus/Pro (Codex Subscription)");
		expect(auth.get("openai-codex")).toMatchObject({ type: "oauth", access: "token-for-pasted-url" });
		expect(harness.runtime.session.getAvailableModels().some((model) => model.provider === "openai-codex")).toBe(
			true,
		);

		await harness.submit("/logout");
		await harness.waitForText("Log out of");
		await harness.press(KEYS.enter);
		await harness.waitForText("Logged out of openai-codex");
		expect(auth.get("openai-codex")).toBeUndefined();
	});

	it("cancels the sign-in when the paste dialog is closed", async () => {
		harness = await createInteractiveHarness({ columns: 160 });
		const auth = harness.runtime.session.modelRegistry.authStorage;
		auth.registerOAuthProvider({
			id: "google-gemini-cli",
			name: "Gemini",
			usesCallbackServer: true,
			async login(callbacks) {
				callbacks.onAuth({ url: "https://accounts.example.test/" });
				await callbacks.onManualCodeInput?.();
				throw new Error("unreachable");
			},
			refreshToken: async (credentials) => credentials,
			getApiKey: (credentials) => credentials.access,
		});
		await harness.submit("/login google-gemini-cli");
		await harness.waitForText(PASTE_REDIRECT_TITLE.slice(0, 40));
		await harness.press(KEYS.escape);
		await harness.waitForText("Login cancelled");
		expect(auth.get("google-gemini-cli")).toBeUndefined();
	});
});
