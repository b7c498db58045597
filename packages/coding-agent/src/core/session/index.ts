// Public API of core/session (re-exported by the package index).
export {};
