// Public API of core/resources (re-exported by the package index).
export {};
