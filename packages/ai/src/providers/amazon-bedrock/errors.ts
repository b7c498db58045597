import { describeError } from "../assistant-output.js";
import { messageWithCauses, retryAfterSeconds, retryAfterSuffix } from "../error-text.js";
import { streamEndedEarlyMessage } from "../stream-errors.js";

/** The SDK's text when the body ended inside an event-stream frame. */
const TRUNCATED_FRAME = "Truncated event message received.";

interface AwsServiceError extends Error {
	$metadata?: { httpStatusCode?: number };
	$response?: { headers?: Record<string, string> };
}

/**
 * Error text that keeps what callers classify by: `<status> <ExceptionName>: <AWS's message>` for HTTP errors
 * (e.g. `400 ValidationException: Input is too long for requested model.`, which isContextOverflow knows), the
 * exception name and message for errors sent inside the stream, a ` (retry after Ns)` hint from `retry-after`, and
 * the causes of a dropped connection. A body that ended inside a frame is a reply cut short.
 */
export function describeBedrockError(error: unknown): string {
	if (!(error instanceof Error)) return describeError(error);
	if (error.message === TRUNCATED_FRAME) return streamEndedEarlyMessage("messageStop");
	const aws = error as AwsServiceError;
	const status = aws.$metadata?.httpStatusCode;
	// AWS names its errors (ValidationException, throttlingException inside the stream); transport errors are plain.
	const name = /exception$/i.test(error.name) ? `${error.name}: ` : "";
	if (status === undefined && !name) return messageWithCauses(error);
	const text = `${status !== undefined ? `${status} ` : ""}${name}${error.message}`;
	return `${text}${retryAfterSuffix(retryAfterSeconds(aws.$response?.headers))}`;
}
