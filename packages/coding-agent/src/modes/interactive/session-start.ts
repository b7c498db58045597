// What the interactive mode does once its UI is up: extensions see the session (`session_start`), then the
// messages from the command line are sent, each after the previous run finished.
import type { EditorHost, NoticeHost, SessionHost } from "./mode-host.js";

export async function startSession(
	host: NoticeHost & SessionHost & Pick<EditorHost, "refreshAutocomplete">,
	isQuitting: () => boolean,
): Promise<void> {
	try {
		await host.session.bindExtensions();
	} catch (error) {
		host.notify("error", `Extension startup failed: ${error instanceof Error ? error.message : String(error)}`);
	}
	host.refreshAutocomplete();
	const { initialMessage, initialImages, messages: initialMessages } = host.options;
	const messages: { text: string; images?: typeof initialImages }[] = [];
	if (initialMessage !== undefined || (initialImages && initialImages.length > 0)) {
		messages.push({ text: initialMessage ?? "", ...(initialImages ? { images: initialImages } : {}) });
	}
	for (const text of initialMessages ?? []) messages.push({ text });
	for (const message of messages) {
		if (isQuitting()) return;
		try {
			await host.session.prompt(message.text, message.images ? { images: message.images } : {});
		} catch (error) {
			host.notifyPromptFailure(error);
		}
	}
}
