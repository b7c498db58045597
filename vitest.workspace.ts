// One project per package; each package's vitest.config.ts sets its name, includes and aliases.
export default ["packages/ai", "packages/agent", "packages/tui", "packages/coding-agent"];
