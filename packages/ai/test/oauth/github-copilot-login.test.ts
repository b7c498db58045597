import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	createGitHubCopilotOAuthProvider,
	type GitHubCopilotOAuthOptions,
	getGitHubCopilotBaseUrl,
	getModels,
	getOAuthProvider,
} from "../../src/index.js";
import { FakeServer } from "../helpers/fake-server.js";
import { formOf } from "../helpers/oauth-fixtures.js";

const server = new FakeServer();
beforeAll(() => server.listen());
afterAll(() => server.close());

const domains: string[] = [];
function options(): GitHubCopilotOAuthOptions {
	return {
		endpointsFor: (domain) => {
			domains.push(domain);
			return {
				deviceCodeUrl: `${server.url}/login/device/code`,
				accessTokenUrl: `${server.url}/login/oauth/access_token`,
				copilotTokenUrl: `${server.url}/copilot_internal/v2/token`,
			};
		},
		apiBaseUrl: server.url,
		minPollIntervalMs: 0,
	};
}

const json = (body: unknown) => ({ kind: "json" as const, status: 200, body });
const copilotToken = "tid=1;exp=1;proxy-ep=proxy.enterprise.example;";

describe("GitHub Copilot sign-in", () => {
	it("runs the device flow on an enterprise domain, exchanges the GitHub token and enables every model", async () => {
		const modelCount = getModels("github-copilot").length;
		server.enqueue(
			json({
				device_code: "dev-1",
				user_code: "ABCD-1234",
				verification_uri: "https://company.ghe.com/login/device",
				interval: 0,
				expires_in: 900,
			}),
			json({ error: "authorization_pending" }),
			json({ access_token: "ghu_token" }),
			json({ token: copilotToken, expires_at: 2_000_000_000 }),
			...Array.from({ length: modelCount }, () => json({})),
		);
		const seen: { url?: string; instructions?: string } = {};
		const progress: string[] = [];
		const start = server.requests.length;
		const credentials = await createGitHubCopilotOAuthProvider(options()).login({
			onPrompt: async ({ message, allowEmpty }) => {
				expect(message).toBe("GitHub Enterprise URL/domain (blank for github.com)");
				expect(allowEmpty).toBe(true);
				return "https://company.ghe.com/some/path";
			},
			onAuth: (info) => Object.assign(seen, info),
			onProgress: (message) => progress.push(message),
		});
		expect(seen).toEqual({ url: "https://company.ghe.com/login/device", instructions: "Enter code: ABCD-1234" });
		expect(domains.at(-1)).toBe("company.ghe.com");
		expect(credentials).toEqual({
			refresh: "ghu_token",
			access: copilotToken,
			expires: 2_000_000_000 * 1000 - 5 * 60 * 1000,
			enterpriseUrl: "company.ghe.com",
		});
		const requests = server.requests.slice(start);
		expect(formOf(requests[0]?.rawBody ?? "")).toMatchObject({ scope: "read:user" });
		expect(formOf(requests[1]?.rawBody ?? "")).toMatchObject({
			device_code: "dev-1",
			grant_type: "urn:ietf:params:oauth:grant-type:device_code",
		});
		expect(requests[3]?.headers.authorization).toBe("Bearer ghu_token");
		expect(requests[3]?.headers["editor-version"]).toBe("vscode/1.107.0");
		const policies = requests.slice(4);
		expect(policies).toHaveLength(modelCount);
		for (const request of policies) {
			expect(request.url).toMatch(/^\/models\/.+\/policy$/);
			expect(request.body).toEqual({ state: "enabled" });
			expect(request.headers.authorization).toBe(`Bearer ${copilotToken}`);
		}
		expect(progress).toContain("Enabling models...");
	});

	it("stops at a device-flow error with GitHub's words", async () => {
		server.enqueue(
			json({
				device_code: "dev-2",
				user_code: "X",
				verification_uri: "https://github.com/login/device",
				interval: 0,
				expires_in: 900,
			}),
			json({ error: "access_denied", error_description: "The user denied the request" }),
		);
		await expect(
			createGitHubCopilotOAuthProvider(options()).login({ onPrompt: async () => "", onAuth: () => undefined }),
		).rejects.toThrow("Device flow failed: access_denied: The user denied the request");
		expect(domains.at(-1)).toBe("github.com");
	});

	it("refuses an enterprise entry that is no domain", async () => {
		await expect(
			createGitHubCopilotOAuthProvider(options()).login({
				onPrompt: async () => "http://",
				onAuth: () => undefined,
			}),
		).rejects.toThrow("Invalid GitHub Enterprise URL/domain");
	});

	it("refreshes the Copilot token with the stored GitHub token on the stored enterprise domain", async () => {
		server.enqueue(json({ token: "tid=2", expires_at: 2_000_000_000 }));
		const next = await createGitHubCopilotOAuthProvider(options()).refreshToken({
			refresh: "ghu_token",
			access: "old",
			expires: 0,
			enterpriseUrl: "company.ghe.com",
		});
		expect(next).toMatchObject({ access: "tid=2", refresh: "ghu_token", enterpriseUrl: "company.ghe.com" });
		expect(domains.at(-1)).toBe("company.ghe.com");
	});

	it("points the models at the endpoint the token names, else the enterprise's", () => {
		expect(getGitHubCopilotBaseUrl(copilotToken)).toBe("https://api.enterprise.example");
		expect(getGitHubCopilotBaseUrl("tid=1", "company.ghe.com")).toBe("https://copilot-api.company.ghe.com");
		expect(getGitHubCopilotBaseUrl()).toBe("https://api.individual.githubcopilot.com");
		const provider = getOAuthProvider("github-copilot");
		const models = provider?.modifyModels?.(getModels("github-copilot"), {
			access: copilotToken,
			refresh: "r",
			expires: 0,
		});
		expect(new Set(models?.map((model) => model.baseUrl))).toEqual(new Set(["https://api.enterprise.example"]));
	});
});
