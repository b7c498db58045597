// Headless Chromium for the export's browser tests and bench: the system's browser (Debian's `chromium`, which
// .ci/run installs), driven by playwright-core. Nothing here downloads a browser.
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The browser to run, or undefined when none is installed (`AGENT_TEST_CHROMIUM` overrides the search). */
export function findChromium(): string | undefined {
	const override = process.env.AGENT_TEST_CHROMIUM;
	if (override) return existsSync(override) ? override : undefined;
	return CANDIDATES.find((path) => existsSync(path));
}

export const CHROMIUM_MISSING_MESSAGE =
	"export-html browser tests skipped: no Chromium at /usr/bin/chromium (install it: apt-get install -y chromium)";

/**
 * Launches headless Chromium with no network side traffic. Playwright gives each launch a fresh temporary profile
 * (--user-data-dir) and removes it on close.
 */
export function launchChromium(executablePath: string): Promise<Browser> {
	return chromium.launch({
		executablePath,
		headless: true,
		args: [
			"--no-sandbox",
			"--disable-gpu",
			"--disable-quic",
			"--no-first-run",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
		],
	});
}
