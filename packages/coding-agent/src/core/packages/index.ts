// Public API of core/packages (re-exported by the package index).
export {
	DefaultPackageManager,
	type InstallOptions,
	type PackageAction,
	PackageInstallError,
	type PackageManagerOptions,
	type PackageProgressCallback,
	type PackageProgressEvent,
} from "./package-manager.js";
export {
	type ConfigurableResource,
	listConfigurableResources,
	type ResourceGroup,
	setResourceEnabled,
} from "./resource-inventory.js";
