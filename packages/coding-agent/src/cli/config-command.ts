// `agent config` (docs/packages.md): a terminal list of every extension, skill, prompt template and theme that packages,
// settings entries and the auto-discovered directories offer; toggling one writes a `+path`/`-path` entry to the
// settings file of its scope. Exits 0 when closed.
import { APP_NAME } from "../config.js";
import { getAgentDir } from "../core/config/paths.js";
import { formatSettingsWarning } from "../core/config/settings-store.js";
import { type CliIo, EXIT_FAILURE, EXIT_SUCCESS } from "./help.js";

export const CONFIG_NEEDS_TERMINAL_TEXT = `${APP_NAME} config needs a terminal; without one, edit the settings files (see docs/packages.md)`;

export interface ConfigCommandContext {
	cwd: string;
	/** Default: `getAgentDir()` (AGENT_DIR or ~/.agent). */
	agentDir?: string;
	io: CliIo;
	/** Default: process.stdin/stdout when both are terminals. */
	terminal?: import("@agent/tui").Terminal;
}

export async function runConfigCommand(context: ConfigCommandContext): Promise<number> {
	const { io } = context;
	if (!context.terminal && !(process.stdin.isTTY && process.stdout.isTTY)) {
		io.stderr.write(`Error: ${CONFIG_NEEDS_TERMINAL_TEXT}\n`);
		return EXIT_FAILURE;
	}
	const [{ SettingsManager }, inventory, { ResourceConfigSelector }, tui, themes, { detectColorMode }] =
		await Promise.all([
			import("../core/config/settings-manager.js"),
			import("../core/packages/resource-inventory.js"),
			import("../modes/interactive/selectors/resource-config-selector.js"),
			import("@agent/tui"),
			import("../modes/interactive/theme/theme-registry.js"),
			import("../modes/interactive/theme/theme.js"),
		]);
	const agentDir = context.agentDir ?? getAgentDir();
	const settingsManager = SettingsManager.create(context.cwd, agentDir);
	for (const error of settingsManager.drainErrors()) {
		io.stderr.write(`${formatSettingsWarning(error, "config command")}\n`);
	}
	const resources = inventory.listConfigurableResources({
		cwd: context.cwd,
		agentDir,
		settingsManager,
	});
	const { theme } = new themes.ThemeRegistry([], detectColorMode()).resolve(settingsManager.getTheme());
	const terminal = context.terminal ?? new tui.ProcessTerminal();
	const ui = new tui.TUI(terminal);
	await new Promise<void>((resolve) => {
		const selector = new ResourceConfigSelector({
			theme,
			resources,
			// The list gets the terminal's height less the title, search line and rules.
			maxVisible: Math.max(5, terminal.rows - 9),
			onToggle: (resource, enabled) => {
				inventory.setResourceEnabled(settingsManager, resource, enabled);
				ui.requestRender();
			},
			onClose: () => resolve(),
		});
		ui.addChild(selector);
		ui.setFocus(selector);
		ui.start();
	});
	ui.stop();
	await settingsManager.flush();
	const errors = settingsManager.drainErrors();
	for (const error of errors) io.stderr.write(`Error: ${error.message}\n`);
	return errors.length > 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
