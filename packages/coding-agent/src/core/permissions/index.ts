// Public API of core/permissions (re-exported by the package index).
export { type CommandPattern, compileCommandPattern } from "./command-pattern.js";
export {
	invalidPermissionModeText,
	isPermissionMode,
	nextPermissionMode,
	PERMISSION_MODE_DESCRIPTIONS,
	PERMISSION_MODE_NAMES,
	PERMISSION_MODES,
	type PermissionMode,
} from "./modes.js";
export { type CallPath, compilePathPattern, type PathAnchors, type PathPattern } from "./path-pattern.js";
export {
	type CompiledRule,
	compilePolicy,
	evaluatePermission,
	type PermissionPolicy,
	type PermissionRuleSet,
	RULE_LISTS,
	type RuleList,
	type RuleProblem,
	type RuleSource,
	type Verdict,
	type VerdictReason,
} from "./policy.js";
export {
	createSelectPermissionPrompt,
	type PermissionAnswer,
	type PermissionChoice,
	type PermissionPrompt,
	type PermissionRequest,
	permissionChoices,
	type SelectDialogs,
} from "./prompt.js";
export { type PermissionRule, parseRule, type RuleParseResult, type RuleTarget } from "./rule-syntax.js";
export { BashSandbox, detectSandbox, type SandboxKind, type SandboxStatus } from "./sandbox.js";
export {
	type CommandLinePermissions,
	type ListedRule,
	type PermissionCall,
	type PermissionEvaluation,
	SessionPermissions,
	type SessionPermissionsOptions,
} from "./session-permissions.js";
export { type AnalyzedCommand, analyzeBashCommand, type BashAnalysis } from "./shell-commands.js";
export { loadShellParser, type ShellParser } from "./shell-parser.js";
export { describeCall, type PermissionSubject } from "./subject.js";
