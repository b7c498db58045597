// Every built-in slash command, in the order the autocomplete lists them.
import type { BuiltinCommand } from "./builtin-commands.js";
import { runUndo } from "./file-restore.js";
import { runChangelog, runHotkeys, runReload } from "./info-commands.js";
import { runLogin, runLogout } from "./login-command.js";
import { completeMcpArgs, runMcp } from "./mcp-command.js";
import { completeModelArgs, runModel, runScopedModels } from "./model-commands.js";
import {
	runCompact,
	runCopy,
	runDebug,
	runExport,
	runFork,
	runName,
	runNew,
	runResume,
	runShare,
	sessionInfoText,
} from "./session-commands.js";
import { openSettings } from "./settings-command.js";
import { openTreeNavigator } from "./tree-command.js";

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
	{ name: "settings", description: "Open settings menu", run: (host) => openSettings(host) },
	{
		name: "model",
		description: "Select model (opens selector UI)",
		takesArgs: true,
		completeArgs: completeModelArgs,
		run: runModel,
	},
	{ name: "scoped-models", description: "Enable/disable models for Ctrl+P cycling", run: runScopedModels },
	{ name: "export", description: "Export session to HTML file", takesArgs: true, run: runExport },
	{ name: "share", description: "Share session as a secret GitHub gist", run: runShare },
	{ name: "copy", description: "Copy last agent message to clipboard", run: runCopy },
	{ name: "name", description: "Set session display name", takesArgs: true, run: runName },
	{
		name: "session",
		description: "Show session info and stats",
		run: (host) => host.notify("info", sessionInfoText(host)),
	},
	{ name: "changelog", description: "Show changelog entries", run: runChangelog },
	{ name: "hotkeys", description: "Show all keyboard shortcuts", run: runHotkeys },
	{ name: "fork", description: "Create a new fork from a previous message", run: runFork },
	{ name: "tree", description: "Navigate session tree (switch branches)", run: openTreeNavigator },
	{ name: "undo", description: "Restore the files changed by the last turn", run: runUndo },
	{ name: "login", description: "Login with OAuth provider", takesArgs: true, run: runLogin },
	{ name: "logout", description: "Logout from OAuth provider", takesArgs: true, run: runLogout },
	{ name: "new", description: "Start a new session", run: runNew },
	{ name: "compact", description: "Manually compact the session context", takesArgs: true, run: runCompact },
	{ name: "resume", description: "Resume a different session", run: runResume },
	{ name: "reload", description: "Reload extensions, skills, prompts, and themes", run: runReload },
	{
		name: "mcp",
		description: "MCP servers: state, tools, errors; /mcp restart <server>",
		takesArgs: true,
		completeArgs: completeMcpArgs,
		run: runMcp,
	},
	{ name: "quit", description: "Quit", run: (host) => host.quit(0) },
	// The reference's README lists /exit as an alias of /quit without implementing it; here it works.
	{ name: "exit", description: "Quit", hidden: true, run: (host) => host.quit(0) },
	{ name: "debug", description: "Write the screen and messages to a debug log", hidden: true, run: runDebug },
];
