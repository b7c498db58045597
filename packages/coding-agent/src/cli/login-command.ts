// `agent login [provider]` and `agent logout [provider]`: signing in to a subscription (ChatGPT Plus/Pro, GitHub
// Copilot, Gemini CLI, Antigravity) from a shell, with the same flows and auth.json as `/login` in the terminal UI.
import { createInterface, type Interface } from "node:readline/promises";
import { APP_NAME } from "../config.js";
import {
	AuthStorage,
	CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT,
	type OAuthKeyProvider,
	unknownLoginProviderText,
} from "../core/config/auth-storage.js";
import { getAuthPath } from "../core/config/paths.js";
import { type CliIo, EXIT_FAILURE, EXIT_SUCCESS } from "./help.js";

export const LOGIN_NEEDS_TERMINAL_TEXT = `${APP_NAME} login needs a terminal: it shows a sign-in link and may ask you to paste a code or the URL the browser ends up on.
Do one of these:
  - run \`${APP_NAME} login\` in a terminal (over SSH too: open the link on any machine, then paste the URL the browser ends up on)
  - run /login in the interactive mode (\`${APP_NAME}\`)
  - copy auth.json from a machine where you are signed in to`;

export const PASTE_REDIRECT_PROMPT =
	"If the browser is on another machine, paste the URL it ends up on here (or just finish signing in there): ";

export interface LoginCommandContext {
	io: CliIo;
	/** Default: getAuthPath() (AGENT_DIR or ~/.agent). */
	authPath?: string;
	/** Default: process.stdin (and `isTerminal` from both standard streams being terminals). */
	input?: NodeJS.ReadableStream;
	isTerminal?: boolean;
	/** The providers offered (tests: built-ins pointed at local servers). Default: the storage's. */
	storage?: AuthStorage;
}

function providerList(providers: readonly OAuthKeyProvider[]): string {
	return providers.map((provider, index) => `  ${index + 1}. ${provider.name} (${provider.id})`).join("\n");
}

/** `agent login --help` / `agent logout --help`. */
export function loginUsageText(command: "login" | "logout", providers: readonly OAuthKeyProvider[]): string {
	const what =
		command === "login"
			? "Signs in to a subscription and keeps its tokens in auth.json (asks which provider when none is given)."
			: "Removes a sign-in from auth.json (asks which one when none is given).";
	return [
		`Usage: ${APP_NAME} ${command} [provider]`,
		"",
		what,
		"",
		"Providers:",
		providerList(providers),
		"",
		`(${CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT})`,
	].join("\n");
}

async function chooseProvider(
	rl: Interface,
	io: CliIo,
	providers: readonly OAuthKeyProvider[],
	title: string,
): Promise<OAuthKeyProvider | undefined> {
	io.stdout.write(`${title}\n${providerList(providers)}\n`);
	const answer = (await rl.question("Number or id (blank to cancel): ")).trim();
	if (!answer) return undefined;
	const index = Number(answer);
	if (Number.isInteger(index) && index >= 1 && index <= providers.length) return providers[index - 1];
	const byId = providers.find((provider) => provider.id === answer);
	if (!byId) throw new Error(unknownLoginProviderText(answer, providers));
	return byId;
}

/** `agent login [provider]` / `agent logout [provider]`; resolves with the exit code. */
export async function runLoginCommand(
	command: "login" | "logout",
	providerArg: string | undefined,
	context: LoginCommandContext,
): Promise<number> {
	const { io } = context;
	if (providerArg === "-h" || providerArg === "--help") {
		const providers = (context.storage ?? AuthStorage.inMemory()).getOAuthProviders();
		io.stdout.write(`${loginUsageText(command, providers)}\n`);
		return EXIT_SUCCESS;
	}
	const isTerminal = context.isTerminal ?? Boolean(process.stdin.isTTY && process.stdout.isTTY);
	const authPath = context.authPath ?? getAuthPath();
	const storage = context.storage ?? AuthStorage.create(authPath);
	const loadError = storage.getLoadError();
	if (loadError) {
		io.stderr.write(`Error: ${loadError}\n`);
		return EXIT_FAILURE;
	}
	if (command === "logout") return runLogout(storage, providerArg, isTerminal, context);
	if (providerArg === "anthropic") {
		io.stderr.write(`Error: ${CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT}\n`);
		return EXIT_FAILURE;
	}
	if (!isTerminal) {
		io.stderr.write(`Error: ${LOGIN_NEEDS_TERMINAL_TEXT}\n`);
		return EXIT_FAILURE;
	}
	const rl = createInterface({ input: context.input ?? process.stdin, output: io.stdout, terminal: false });
	const abort = new AbortController();
	const onSigint = () => abort.abort();
	process.once("SIGINT", onSigint);
	try {
		const providers = storage.getOAuthProviders();
		let provider: OAuthKeyProvider | undefined;
		if (providerArg) {
			provider = storage.getOAuthProvider(providerArg);
			if (!provider) throw new Error(unknownLoginProviderText(providerArg, providers));
		} else {
			io.stdout.write(`(${CLAUDE_SUBSCRIPTION_UNSUPPORTED_TEXT})\n`);
			provider = await chooseProvider(rl, io, providers, "Sign in to:");
			if (!provider) return EXIT_FAILURE;
		}
		await storage.login(provider.id, {
			onAuth: ({ url, instructions }) => {
				io.stdout.write(`\nOpen this page to sign in:\n\n  ${url}\n\n${instructions ? `${instructions}\n` : ""}`);
			},
			onPrompt: async ({ message, placeholder }) =>
				(
					await rl.question(`${message}${placeholder ? ` (e.g. ${placeholder})` : ""}: `, { signal: abort.signal })
				).trim(),
			onProgress: (message) => io.stdout.write(`${message}\n`),
			...(provider.usesCallbackServer
				? { onManualCodeInput: () => rl.question(PASTE_REDIRECT_PROMPT, { signal: abort.signal }) }
				: {}),
			signal: abort.signal,
		});
		io.stdout.write(`\nSigned in to ${provider.name}. Credentials saved to ${authPath}.\n`);
		return EXIT_SUCCESS;
	} catch (error) {
		const message = abort.signal.aborted ? "Login cancelled" : error instanceof Error ? error.message : String(error);
		io.stderr.write(`\nError: ${message}\n`);
		return EXIT_FAILURE;
	} finally {
		process.off("SIGINT", onSigint);
		rl.close();
	}
}

async function runLogout(
	storage: AuthStorage,
	providerArg: string | undefined,
	isTerminal: boolean,
	context: LoginCommandContext,
): Promise<number> {
	const { io } = context;
	const signedIn = storage.listOAuth();
	let provider = providerArg;
	if (!provider) {
		if (signedIn.length === 0) {
			io.stdout.write("No OAuth providers logged in.\n");
			return EXIT_SUCCESS;
		}
		if (!isTerminal || signedIn.length === 1) {
			if (signedIn.length > 1) {
				io.stderr.write(`Error: name the provider to log out of: ${signedIn.join(", ")}\n`);
				return EXIT_FAILURE;
			}
			provider = signedIn[0];
		} else {
			const rl = createInterface({ input: context.input ?? process.stdin, output: io.stdout, terminal: false });
			try {
				const providers = signedIn.map(
					(id) => storage.getOAuthProvider(id) ?? ({ id, name: id } as OAuthKeyProvider),
				);
				provider = (await chooseProvider(rl, io, providers, "Log out of:"))?.id;
			} finally {
				rl.close();
			}
			if (!provider) return EXIT_FAILURE;
		}
	}
	if (!signedIn.includes(provider as string)) {
		io.stderr.write(`Error: not logged in to ${provider}\n`);
		return EXIT_FAILURE;
	}
	storage.logout(provider as string);
	io.stdout.write(`Logged out of ${provider}\n`);
	return EXIT_SUCCESS;
}
