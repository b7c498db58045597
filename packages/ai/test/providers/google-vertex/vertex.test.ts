// Vertex AI through @google/genai (vertexai: true) against a local server: the URL paths and credentials of both
// ways in (express-mode API key; project and location with a Google access token), and the resolution rules.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	resolveVertexAuth,
	VERTEX_LOCATION_REQUIRED,
	VERTEX_PROJECT_REQUIRED,
} from "../../../src/providers/google-vertex/client.js";
import { streamGoogleVertex, streamSimpleGoogleVertex } from "../../../src/providers/google-vertex/index.js";
import type { Context, GoogleVertexOptions } from "../../../src/types.js";
import { geminiReply, geminiTextChunks } from "../../helpers/google-sse.js";
import { useFakeServer, vertexGemini } from "../../helpers/provider-test-harness.js";
import { collect } from "../../helpers/stream-events.js";

const server = useFakeServer();
const context: Context = { messages: [{ role: "user", content: "hello", timestamp: 1 }] };
const VARS = ["GOOGLE_CLOUD_API_KEY", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"];
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
	saved = Object.fromEntries(VARS.map((name) => [name, process.env[name]]));
	for (const name of VARS) delete process.env[name];
});
afterEach(() => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

async function send(options: GoogleVertexOptions) {
	const before = server.requests.length;
	server.enqueue(geminiReply(geminiTextChunks(["Hi", " there"])));
	const { result } = await collect(streamGoogleVertex(vertexGemini(server.url), context, options));
	return { result, request: server.requests[before] };
}

describe("requests", () => {
	it("with an API key, calls the express-mode path with the key in x-goog-api-key", async () => {
		const { result, request } = await send({ apiKey: "vertex-key" });
		expect(result.content).toEqual([expect.objectContaining({ type: "text", text: "Hi there" })]);
		expect(request.url).toBe("/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
		expect(request.headers["x-goog-api-key"]).toBe("vertex-key");
	});

	it("with a project and location, calls the project's regional path with a bearer token", async () => {
		const { result, request } = await send({
			project: "my-project",
			location: "europe-west4",
			accessToken: async () => "ya29.test-token",
		});
		expect(result.stopReason).toBe("stop");
		expect(request.url).toBe(
			"/v1/projects/my-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		);
		expect(request.headers.authorization).toBe("Bearer ya29.test-token");
		expect(request.headers["x-goog-api-key"]).toBeUndefined();
	});

	it("takes project and location from GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION", async () => {
		process.env.GOOGLE_CLOUD_PROJECT = "env-project";
		process.env.GOOGLE_CLOUD_LOCATION = "us-central1";
		const { request } = await send({ accessToken: "ya29.static" });
		expect(request.url).toMatch(/^\/v1\/projects\/env-project\/locations\/us-central1\//);
	});

	it("sends the level of a Gemini 2.5 model as a thinking budget", async () => {
		const before = server.requests.length;
		server.enqueue(geminiReply(geminiTextChunks(["ok"])));
		await collect(streamSimpleGoogleVertex(vertexGemini(server.url), context, { apiKey: "k", reasoning: "low" }));
		const body = server.requests[before].body as { generationConfig: { thinkingConfig: unknown } };
		expect(body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: 2048 });
	});
});

describe("credentials", () => {
	it("treats the <authenticated> placeholder as no key and falls back to ADC with project and location", () => {
		expect(resolveVertexAuth({ apiKey: "<authenticated>", project: "p", location: "l" }, {})).toEqual({
			kind: "credentials",
			project: "p",
			location: "l",
			accessToken: undefined,
		});
		expect(resolveVertexAuth({}, { GOOGLE_CLOUD_API_KEY: "env-key" })).toEqual({ kind: "apiKey", apiKey: "env-key" });
		expect(resolveVertexAuth({}, { GCLOUD_PROJECT: "p", GOOGLE_CLOUD_LOCATION: "global" })).toMatchObject({
			project: "p",
			location: "global",
		});
	});

	it("without a key, a missing project or location fails the stream with the reference's texts", async () => {
		expect(() => resolveVertexAuth({}, { GOOGLE_CLOUD_LOCATION: "l" })).toThrow(VERTEX_PROJECT_REQUIRED);
		expect(() => resolveVertexAuth({}, { GOOGLE_CLOUD_PROJECT: "p" })).toThrow(VERTEX_LOCATION_REQUIRED);
		const { result } = await collect(streamGoogleVertex(vertexGemini(server.url), context, {}));
		expect(result.errorMessage).toBe(
			"Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options.",
		);
	});
});
