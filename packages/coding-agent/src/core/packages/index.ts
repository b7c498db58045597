// Public API of core/packages (re-exported by the package index). `ProgressCallback` and `ProgressEvent` are the
// reference's names of the progress types.
export {
	DefaultPackageManager,
	type InstallOptions,
	type PackageAction,
	PackageInstallError,
	type PackageManager,
	type PackageManagerOptions,
	type PackageProgressCallback,
	type PackageProgressCallback as ProgressCallback,
	type PackageProgressEvent,
	type PackageProgressEvent as ProgressEvent,
} from "./package-manager.js";
export type {
	MissingSourceAction,
	PathMetadata,
	ResolvedPaths,
	ResolvedResource,
} from "./resolved-paths.js";
export {
	type ConfigurableResource,
	listConfigurableResources,
	type ResourceGroup,
	setResourceEnabled,
} from "./resource-inventory.js";
