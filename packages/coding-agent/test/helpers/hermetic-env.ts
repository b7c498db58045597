// Setup file of the coding-agent tests: provider keys of the developer's shell are not the tests' business.
// Bash commands run without them anyway, and the first result would carry a notice naming them, so a suite
// run with, say, GH_TOKEN set would differ from CI. Tests that need a key set it themselves.
// It imports the names from the module @agent/ai re-exports them from, not the package's whole source.
import { PROVIDER_KEY_ENV_VARS } from "@agent/ai/env-api-keys";

for (const name of PROVIDER_KEY_ENV_VARS) delete process.env[name];
