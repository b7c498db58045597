import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	createAntigravityOAuthProvider,
	createGeminiCliOAuthProvider,
	type GoogleOAuthEndpoints,
} from "../../src/index.js";
import { FakeServer } from "../helpers/fake-server.js";
import { followRedirect, formOf } from "../helpers/oauth-fixtures.js";

const server = new FakeServer();
beforeAll(() => server.listen());
afterAll(() => server.close());

function endpoints(codeAssist: string[] = [server.url]): GoogleOAuthEndpoints {
	return {
		authUrl: `${server.url}/o/oauth2/v2/auth`,
		tokenUrl: `${server.url}/token`,
		userInfoUrl: `${server.url}/userinfo`,
		codeAssistUrls: codeAssist,
		callbackPort: 0,
		provisioningPollMs: 0,
	};
}

const json = (body: unknown, status = 200) => ({ kind: "json" as const, status, body });
const tokens = json({ access_token: "ya29.access", refresh_token: "1//refresh", expires_in: 3600 });
const never = () => new Promise<string>(() => undefined);

describe("Gemini CLI sign-in", () => {
	it("signs in through the callback server, then onboards a free-tier account and waits for its project", async () => {
		delete process.env.GOOGLE_CLOUD_PROJECT;
		delete process.env.GOOGLE_CLOUD_PROJECT_ID;
		server.enqueue(
			tokens,
			json({ email: "me@example.com" }),
			json({ allowedTiers: [{ id: "free-tier", isDefault: true }] }),
			json({ done: false, name: "operations/op-1" }),
			json({ done: true, response: { cloudaicompanionProject: { id: "proj-free" } } }),
		);
		const start = server.requests.length;
		const credentials = await createGeminiCliOAuthProvider(endpoints()).login({
			onAuth: ({ url }) => void followRedirect(url, "google-code"),
			onPrompt: never,
			onManualCodeInput: never,
		});
		expect(credentials).toMatchObject({
			access: "ya29.access",
			refresh: "1//refresh",
			projectId: "proj-free",
			email: "me@example.com",
		});
		const [token, userInfo, load, onboard, poll] = server.requests.slice(start);
		expect(formOf(token?.rawBody ?? "")).toMatchObject({ grant_type: "authorization_code", code: "google-code" });
		expect(userInfo?.headers.authorization).toBe("Bearer ya29.access");
		expect(load?.url).toBe("/v1internal:loadCodeAssist");
		expect(onboard?.url).toBe("/v1internal:onboardUser");
		expect(onboard?.body).toMatchObject({ tierId: "free-tier" });
		expect(poll?.url).toBe("/v1internal/operations/op-1");
		expect(poll?.method).toBe("GET");
	});

	it("uses the project of an account that already has one", async () => {
		server.enqueue(
			tokens,
			json({}),
			json({ currentTier: { id: "standard-tier" }, cloudaicompanionProject: "proj-existing" }),
		);
		const credentials = await createGeminiCliOAuthProvider(endpoints()).login({
			onAuth: ({ url }) => void followRedirect(url, "c"),
			onPrompt: never,
			onManualCodeInput: never,
		});
		expect(credentials.projectId).toBe("proj-existing");
	});

	it("keeps the project and the refresh token when refreshing", async () => {
		server.enqueue(json({ access_token: "ya29.new", expires_in: 3600 }));
		const next = await createGeminiCliOAuthProvider(endpoints()).refreshToken({
			access: "old",
			refresh: "1//refresh",
			expires: 0,
			projectId: "proj-1",
		});
		expect(next).toMatchObject({ access: "ya29.new", refresh: "1//refresh", projectId: "proj-1" });
		expect(formOf(server.requests.at(-1)?.rawBody ?? "")).toMatchObject({ grant_type: "refresh_token" });
	});
});

describe("Antigravity sign-in", () => {
	it("tries each Cloud Code Assist server for the project and falls back to the default one", async () => {
		server.enqueue(tokens, json({}), json({ error: "nope" }, 403), json({}));
		const credentials = await createAntigravityOAuthProvider(endpoints([server.url, server.url])).login({
			onAuth: ({ url }) => void followRedirect(url, "c"),
			onPrompt: never,
			onManualCodeInput: never,
		});
		expect(credentials.projectId).toBe("rising-fact-p41fc");
		expect(server.requests.slice(-2).map((request) => request.url)).toEqual([
			"/v1internal:loadCodeAssist",
			"/v1internal:loadCodeAssist",
		]);
	});
});
