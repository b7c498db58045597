// Public API of @agent/tui. Nothing inside the package imports this file.
export {};
