// A proxy server on 127.0.0.1 for streamProxy's tests: records each request and answers with the scripted reply,
// the events as server-sent events.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ProxyAssistantMessageEvent } from "@agent/agent-core";

export type ProxyReply =
	| { kind: "events"; events: ProxyAssistantMessageEvent[]; raw?: string }
	/** Sends the events and keeps the response open until the client goes away. */
	| { kind: "open"; events: ProxyAssistantMessageEvent[] }
	| { kind: "status"; status: number; body: string };

export interface ProxyRequest {
	url: string;
	headers: IncomingMessage["headers"];
	body: unknown;
}

export class ProxyTestServer {
	readonly requests: ProxyRequest[] = [];
	private readonly replies: ProxyReply[] = [];
	private readonly server: Server = createServer((req, res) => this.handle(req, res));
	url = "";

	async listen(): Promise<void> {
		await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	enqueue(reply: ProxyReply): void {
		this.replies.push(reply);
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		this.requests.push({
			url: req.url ?? "",
			headers: req.headers,
			body: JSON.parse(Buffer.concat(chunks).toString()),
		});
		const reply = this.replies.shift() ?? { kind: "status", status: 500, body: "no reply scripted" };
		if (reply.kind === "status") {
			res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
			return;
		}
		res.writeHead(200, { "content-type": "text/event-stream" });
		for (const event of reply.events) res.write(`data: ${JSON.stringify(event)}\n\n`);
		if (reply.kind === "events") res.end(reply.raw);
	}
}
