// Azure OpenAI through the official SDK's Azure client against a local server: URL, api-version, api-key header,
// deployment names, and the endpoint resolution rules.
import { describe, expect, it } from "vitest";
import {
	AZURE_BASE_URL_REQUIRED,
	parseDeploymentNameMap,
	resolveAzureEndpoint,
	resolveDeploymentName,
} from "../../../src/providers/azure-openai-responses/config.js";
import { streamAzureOpenAIResponses } from "../../../src/providers/azure-openai-responses/index.js";
import type { AzureOpenAIResponsesOptions, Context } from "../../../src/types.js";
import { completed, created, messageItem } from "../../helpers/openai-responses-sse.js";
import { azureTestModel, useFakeServer } from "../../helpers/provider-test-harness.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();
const context: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };

async function send(options: AzureOpenAIResponsesOptions, baseUrl = `${server.url}/openai/v1`) {
	const before = server.requests.length;
	server.enqueue({ kind: "sse", chunks: [created(), ...messageItem(0, "msg_1", "Hi"), completed()] });
	const { result } = await collect(streamAzureOpenAIResponses(azureTestModel(baseUrl), context, options));
	return { result, request: server.requests[before] };
}

describe("requests", () => {
	it("posts to <base>/responses?api-version=v1 with the key in api-key and the deployment as model", async () => {
		const { result, request } = await send({ apiKey: "azure-key", azureDeploymentName: "my-gpt52" });
		expect(result.content).toEqual([expect.objectContaining({ type: "text", text: "Hi" })]);
		expect(request.url).toBe("/openai/v1/responses?api-version=v1");
		expect(request.headers["api-key"]).toBe("azure-key");
		expect(request.headers.authorization).toBeUndefined();
		expect(request.body).toMatchObject({ model: "my-gpt52", stream: true, store: false });
	});

	it("sends the API version and base URL given as options", async () => {
		const { request } = await send(
			{ apiKey: "k", azureApiVersion: "2025-04-01-preview", azureBaseUrl: `${server.url}/custom/v1/` },
			"",
		);
		expect(request.url).toBe("/custom/v1/responses?api-version=2025-04-01-preview");
	});

	it("without a key fails with the reference's text", async () => {
		const saved = process.env.AZURE_OPENAI_API_KEY;
		delete process.env.AZURE_OPENAI_API_KEY;
		try {
			const { result } = await collect(streamAzureOpenAIResponses(azureTestModel(server.url), context, {}));
			expect(result.errorMessage).toBe(
				"Azure OpenAI API key is required. Set AZURE_OPENAI_API_KEY environment variable or pass it as an argument.",
			);
		} finally {
			if (saved !== undefined) process.env.AZURE_OPENAI_API_KEY = saved;
		}
	});
});

describe("configuration", () => {
	const model = azureTestModel("");

	it("resolves the base URL: option, AZURE_OPENAI_BASE_URL, resource name, model", () => {
		expect(resolveAzureEndpoint(model, { azureBaseUrl: "https://a/openai/v1/" }, {}).baseUrl).toBe(
			"https://a/openai/v1",
		);
		expect(resolveAzureEndpoint(model, {}, { AZURE_OPENAI_BASE_URL: "https://b/openai/v1" }).baseUrl).toBe(
			"https://b/openai/v1",
		);
		expect(resolveAzureEndpoint(model, {}, { AZURE_OPENAI_RESOURCE_NAME: "res" }).baseUrl).toBe(
			"https://res.openai.azure.com/openai/v1",
		);
		expect(resolveAzureEndpoint(azureTestModel("https://m/openai/v1"), {}, {}).baseUrl).toBe("https://m/openai/v1");
		expect(() => resolveAzureEndpoint(model, {}, {})).toThrow(AZURE_BASE_URL_REQUIRED);
	});

	it("resolves the API version: option, AZURE_OPENAI_API_VERSION, v1", () => {
		const endpoint = (options: AzureOpenAIResponsesOptions, env: NodeJS.ProcessEnv) =>
			resolveAzureEndpoint(model, { azureBaseUrl: "https://x", ...options }, env).apiVersion;
		expect(endpoint({ azureApiVersion: "2025-03-01-preview" }, { AZURE_OPENAI_API_VERSION: "x" })).toBe(
			"2025-03-01-preview",
		);
		expect(endpoint({}, { AZURE_OPENAI_API_VERSION: "2024-10-21" })).toBe("2024-10-21");
		expect(endpoint({}, {})).toBe("v1");
	});

	it("maps model ids to deployments from AZURE_OPENAI_DEPLOYMENT_NAME_MAP, else the id itself", () => {
		expect(parseDeploymentNameMap(" gpt-5.2=prod-52 , broken, o3 = reasoning ,=x")).toEqual(
			new Map([
				["gpt-5.2", "prod-52"],
				["o3", "reasoning"],
			]),
		);
		const env = { AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-5.2=prod-52" };
		expect(resolveDeploymentName(model, {}, env)).toBe("prod-52");
		expect(resolveDeploymentName(model, { azureDeploymentName: "explicit" }, env)).toBe("explicit");
		expect(resolveDeploymentName(model, {}, {})).toBe("gpt-5.2");
	});
});
