import type { StopReason } from "../../types.js";

/** A finished response's status as our stop reason. */
export function mapResponseStatus(status: string | null | undefined): StopReason {
	switch (status) {
		case "incomplete":
			return "length";
		case "failed":
		case "cancelled":
			return "error";
		default:
			// completed, in_progress, queued, and proxies that leave the status out.
			return "stop";
	}
}
