import { createServer, type IncomingMessage, request, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";

/** One request the proxy received: a CONNECT tunnel, or a plain request forwarded by absolute URI. */
export interface ProxiedRequest {
	kind: "connect" | "forward";
	/** `host:port` for a tunnel, the absolute URI for a forwarded request. */
	target: string;
	/** The `Proxy-Authorization` header the client sent. */
	authorization: string | undefined;
}

export interface TestProxyOptions {
	/** Answer every CONNECT with this status instead of opening the tunnel. */
	refuseConnectWith?: number;
}

/**
 * A local HTTP proxy on 127.0.0.1, as corporate networks run them: CONNECT opens a TCP tunnel to the target
 * (TLS then runs end to end through it), and a request with an absolute URI is forwarded to its origin.
 * Everything it was asked is in `requests`.
 */
export class TestProxy {
	readonly requests: ProxiedRequest[] = [];
	private readonly sockets = new Set<Socket>();
	private readonly server: Server;
	private address: string | undefined;

	constructor(private readonly options: TestProxyOptions = {}) {
		this.server = createServer((req, res) => {
			this.record("forward", req);
			const target = new URL(req.url ?? "/");
			const headers = { ...req.headers };
			delete headers["proxy-authorization"];
			const upstream = request(target, { method: req.method, headers }, (reply) => {
				res.writeHead(reply.statusCode ?? 502, reply.headers);
				reply.pipe(res);
			});
			upstream.on("error", () => res.destroy());
			req.pipe(upstream);
		});
		this.server.on("connection", (socket: Socket) => this.track(socket));
		this.server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
			this.record("connect", req);
			if (this.options.refuseConnectWith !== undefined) {
				client.end(`HTTP/1.1 ${this.options.refuseConnectWith} Refused\r\ncontent-length: 0\r\n\r\n`);
				return;
			}
			const [host, port] = splitHostPort(req.url ?? "");
			const upstream = connect(port, host, () => {
				client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
				if (head.byteLength > 0) upstream.write(head);
				upstream.pipe(client);
				client.pipe(upstream);
			});
			this.track(upstream);
			upstream.on("error", () => client.destroy());
			client.on("error", () => upstream.destroy());
			client.on("close", () => upstream.destroy());
			upstream.on("close", () => client.destroy());
		});
	}

	async listen(): Promise<void> {
		await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
		this.address = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** `http://127.0.0.1:<port>`. */
	get url(): string {
		if (this.address === undefined) throw new Error("TestProxy: url read before listen() finished");
		return this.address;
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private record(kind: ProxiedRequest["kind"], req: IncomingMessage): void {
		this.requests.push({ kind, target: req.url ?? "", authorization: req.headers["proxy-authorization"] });
	}

	private track(socket: Socket): void {
		this.sockets.add(socket);
		socket.on("close", () => this.sockets.delete(socket));
		socket.on("error", () => undefined);
	}
}

function splitHostPort(authority: string): [string, number] {
	const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
	if (!match) throw new Error(`TestProxy: not a host:port target: ${authority}`);
	return [match[1], Number(match[2])];
}
