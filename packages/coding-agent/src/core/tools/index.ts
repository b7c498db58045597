// Public API of core/tools (re-exported by the package index).
export {};
