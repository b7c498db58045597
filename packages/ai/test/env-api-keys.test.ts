import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
	AUTHENTICATED_PLACEHOLDER,
	describeProviderCredentials,
	getEnvApiKey,
	PROVIDER_KEY_ENV_VARS,
} from "../src/index.js";

const noHome = join(tmpdir(), "agent-env-api-keys-no-home");

describe("providers whose key is one environment variable", () => {
	it.each([
		["openai", "OPENAI_API_KEY"],
		["azure-openai-responses", "AZURE_OPENAI_API_KEY"],
		["google", "GEMINI_API_KEY"],
		["groq", "GROQ_API_KEY"],
		["cerebras", "CEREBRAS_API_KEY"],
		["xai", "XAI_API_KEY"],
		["openrouter", "OPENROUTER_API_KEY"],
		["vercel-ai-gateway", "AI_GATEWAY_API_KEY"],
		["zai", "ZAI_API_KEY"],
		["mistral", "MISTRAL_API_KEY"],
		["minimax", "MINIMAX_API_KEY"],
		["minimax-cn", "MINIMAX_CN_API_KEY"],
		["huggingface", "HF_TOKEN"],
		["opencode", "OPENCODE_API_KEY"],
		["opencode-go", "OPENCODE_API_KEY"],
		["kimi-coding", "KIMI_API_KEY"],
		["google-vertex", "GOOGLE_CLOUD_API_KEY"],
	])("%s reads %s", (provider, variable) => {
		expect(getEnvApiKey(provider, { [variable]: "key-123" })).toBe("key-123");
		expect(getEnvApiKey(provider, { OTHER_API_KEY: "x", HOME: noHome })).toBeUndefined();
	});

	it("keeps MiniMax's global and China keys apart", () => {
		expect(getEnvApiKey("minimax", { MINIMAX_CN_API_KEY: "cn" })).toBeUndefined();
		expect(getEnvApiKey("minimax-cn", { MINIMAX_API_KEY: "global" })).toBeUndefined();
	});

	it.each(["openai-codex", "google-gemini-cli", "google-antigravity", "some-custom-provider"])(
		"%s has no environment key",
		(provider) => {
			expect(getEnvApiKey(provider, { OPENAI_API_KEY: "k", GEMINI_API_KEY: "k" })).toBeUndefined();
		},
	);
});

describe("precedence", () => {
	it("prefers ANTHROPIC_OAUTH_TOKEN over ANTHROPIC_API_KEY", () => {
		expect(getEnvApiKey("anthropic", { ANTHROPIC_API_KEY: "sk-ant-api", ANTHROPIC_OAUTH_TOKEN: "sk-ant-oat" })).toBe(
			"sk-ant-oat",
		);
		expect(getEnvApiKey("anthropic", { ANTHROPIC_API_KEY: "sk-ant-api" })).toBe("sk-ant-api");
	});

	it("checks COPILOT_GITHUB_TOKEN, then GH_TOKEN, then GITHUB_TOKEN", () => {
		const all = { COPILOT_GITHUB_TOKEN: "copilot", GH_TOKEN: "gh", GITHUB_TOKEN: "github" };
		expect(getEnvApiKey("github-copilot", all)).toBe("copilot");
		expect(getEnvApiKey("github-copilot", { GH_TOKEN: "gh", GITHUB_TOKEN: "github" })).toBe("gh");
		expect(getEnvApiKey("github-copilot", { GITHUB_TOKEN: "github" })).toBe("github");
	});

	it("skips empty and blank values and falls through to the next variable", () => {
		expect(getEnvApiKey("anthropic", { ANTHROPIC_OAUTH_TOKEN: "", ANTHROPIC_API_KEY: "sk-ant-api" })).toBe(
			"sk-ant-api",
		);
		expect(getEnvApiKey("github-copilot", { COPILOT_GITHUB_TOKEN: "  ", GH_TOKEN: "", GITHUB_TOKEN: "gt" })).toBe(
			"gt",
		);
		expect(getEnvApiKey("openai", { OPENAI_API_KEY: "" })).toBeUndefined();
	});

	it("reads process.env when no environment is passed", () => {
		const variable = "KIMI_API_KEY";
		const previous = process.env[variable];
		process.env[variable] = "from-process";
		try {
			expect(getEnvApiKey("kimi-coding")).toBe("from-process");
		} finally {
			if (previous === undefined) delete process.env[variable];
			else process.env[variable] = previous;
		}
	});
});

describe("Vertex application default credentials", () => {
	const dir = mkdtempSync(join(tmpdir(), "agent-adc-"));
	const credentials = join(dir, "adc.json");
	writeFileSync(credentials, "{}");
	const adc = {
		GOOGLE_APPLICATION_CREDENTIALS: credentials,
		GOOGLE_CLOUD_PROJECT: "p",
		GOOGLE_CLOUD_LOCATION: "us-central1",
	};

	it("yields the placeholder with a credentials file, a project and a location", () => {
		expect(getEnvApiKey("google-vertex", adc)).toBe(AUTHENTICATED_PLACEHOLDER);
		expect(AUTHENTICATED_PLACEHOLDER).toBe("<authenticated>");
	});

	it("accepts GCLOUD_PROJECT instead of GOOGLE_CLOUD_PROJECT", () => {
		const { GOOGLE_CLOUD_PROJECT: _, ...rest } = adc;
		expect(getEnvApiKey("google-vertex", { ...rest, GCLOUD_PROJECT: "p" })).toBe(AUTHENTICATED_PLACEHOLDER);
	});

	it("finds the gcloud default credentials file under the home directory", () => {
		const home = mkdtempSync(join(tmpdir(), "agent-home-"));
		mkdirSync(join(home, ".config", "gcloud"), { recursive: true });
		writeFileSync(join(home, ".config", "gcloud", "application_default_credentials.json"), "{}");
		expect(getEnvApiKey("google-vertex", { HOME: home, GOOGLE_CLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "l" })).toBe(
			AUTHENTICATED_PLACEHOLDER,
		);
	});

	it.each([
		["the credentials file is missing", { ...adc, GOOGLE_APPLICATION_CREDENTIALS: join(dir, "missing.json") }],
		["the project is missing", { ...adc, GOOGLE_CLOUD_PROJECT: "" }],
		["the location is missing", { ...adc, GOOGLE_CLOUD_LOCATION: undefined }],
	])("yields nothing when %s", (_case, env) => {
		expect(getEnvApiKey("google-vertex", { ...env, HOME: noHome })).toBeUndefined();
	});

	it("prefers GOOGLE_CLOUD_API_KEY over ADC", () => {
		expect(getEnvApiKey("google-vertex", { ...adc, GOOGLE_CLOUD_API_KEY: "vertex-key" })).toBe("vertex-key");
	});
});

describe("Bedrock credentials", () => {
	it.each([
		["AWS_PROFILE", { AWS_PROFILE: "dev" }],
		["an access key pair", { AWS_ACCESS_KEY_ID: "AKIA", AWS_SECRET_ACCESS_KEY: "secret" }],
		["a Bedrock bearer token", { AWS_BEARER_TOKEN_BEDROCK: "t" }],
		["ECS relative credentials", { AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: "/v2/creds" }],
		["ECS full credentials", { AWS_CONTAINER_CREDENTIALS_FULL_URI: "http://169.254.170.2/creds" }],
		["a web identity token", { AWS_WEB_IDENTITY_TOKEN_FILE: "/var/run/token" }],
	])("yields the placeholder with %s", (_case, env) => {
		expect(getEnvApiKey("amazon-bedrock", env)).toBe(AUTHENTICATED_PLACEHOLDER);
	});

	it("needs both halves of an access key pair", () => {
		expect(getEnvApiKey("amazon-bedrock", { AWS_ACCESS_KEY_ID: "AKIA" })).toBeUndefined();
		expect(getEnvApiKey("amazon-bedrock", { AWS_SECRET_ACCESS_KEY: "secret" })).toBeUndefined();
	});

	it("yields nothing without credentials", () => {
		expect(getEnvApiKey("amazon-bedrock", { AWS_REGION: "us-east-1" })).toBeUndefined();
	});
});

describe("describeProviderCredentials", () => {
	it("names a provider's variables in words", () => {
		expect(describeProviderCredentials("openai")).toBe("OPENAI_API_KEY");
		expect(describeProviderCredentials("anthropic")).toBe("ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY");
		expect(describeProviderCredentials("github-copilot")).toBe("COPILOT_GITHUB_TOKEN, GH_TOKEN or GITHUB_TOKEN");
		expect(describeProviderCredentials("some-custom-provider")).toBeUndefined();
	});

	it("names the combinations of the cloud providers", () => {
		expect(describeProviderCredentials("amazon-bedrock")).toBe(
			"AWS_PROFILE, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_BEARER_TOKEN_BEDROCK",
		);
		expect(describeProviderCredentials("google-vertex")).toContain("GOOGLE_CLOUD_API_KEY, or GOOGLE_CLOUD_PROJECT");
		expect(describeProviderCredentials("azure-openai-responses")).toBe(
			"AZURE_OPENAI_API_KEY, with AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME",
		);
	});
});

describe("PROVIDER_KEY_ENV_VARS (kept from commands the agent runs)", () => {
	it("holds every provider key and token, the cloud providers' included", () => {
		for (const name of [
			"ANTHROPIC_API_KEY",
			"OPENAI_API_KEY",
			"AZURE_OPENAI_API_KEY",
			"GOOGLE_CLOUD_API_KEY",
			"AWS_BEARER_TOKEN_BEDROCK",
			"MISTRAL_API_KEY",
		]) {
			expect(PROVIDER_KEY_ENV_VARS).toContain(name);
		}
	});

	it("leaves general cloud credentials alone, so aws and gcloud keep working in bash", () => {
		for (const name of [
			"AWS_ACCESS_KEY_ID",
			"AWS_SECRET_ACCESS_KEY",
			"AWS_SESSION_TOKEN",
			"AWS_PROFILE",
			"GOOGLE_APPLICATION_CREDENTIALS",
		]) {
			expect(PROVIDER_KEY_ENV_VARS).not.toContain(name);
		}
	});
});
