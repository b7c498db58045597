// The session's permission questions in the terminal UI, and the footer following the permission mode (the
// cycle key, an extension or `/permissions` may change it).
import type { DialogHost, FooterHost, SessionHost } from "./mode-host.js";
import { askPermissionInTerminal } from "./selectors/permission-dialog.js";

/** Returns the function that unbinds (the mode is quitting). */
export function bindPermissions(host: SessionHost & DialogHost & FooterHost): () => void {
	const permissions = host.session.permissions;
	permissions.setPrompt((request, signal) => askPermissionInTerminal(host, request, signal));
	const stopFollowingMode = permissions.onModeChange(() => host.refreshFooter());
	return () => {
		permissions.setPrompt(undefined);
		stopFollowingMode();
	};
}
