import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceForSettings, withPackageAdded, withPackageRemoved } from "../../src/core/packages/package-settings.js";
import { packageIdentity, packageInstallPath, parsePackageSource } from "../../src/core/resources/package-sources.js";

describe("parsePackageSource", () => {
	it("reads npm names with scopes and versions; a version pins", () => {
		expect(parsePackageSource("npm:@acme/tools@1.2.3")).toEqual({
			type: "npm",
			source: "npm:@acme/tools@1.2.3",
			spec: "@acme/tools@1.2.3",
			name: "@acme/tools",
			version: "1.2.3",
			pinned: true,
		});
		expect(parsePackageSource("npm:@acme/tools")).toMatchObject({ name: "@acme/tools", pinned: false });
		expect(parsePackageSource("npm:plain@^2")).toMatchObject({ name: "plain", version: "^2", pinned: true });
	});

	it.each([
		["git:github.com/user/repo", "https://github.com/user/repo", "github.com", "user/repo", undefined],
		["git:github.com/user/repo@v1", "https://github.com/user/repo", "github.com", "user/repo", "v1"],
		["git:git@github.com:user/repo@v1", "git@github.com:user/repo", "github.com", "user/repo", "v1"],
		["https://github.com/user/repo.git", "https://github.com/user/repo.git", "github.com", "user/repo", undefined],
		[
			"https://gitlab.com/group/sub/repo@main",
			"https://gitlab.com/group/sub/repo",
			"gitlab.com",
			"group/sub/repo",
			"main",
		],
		["ssh://git@github.com/user/repo@v2", "ssh://git@github.com/user/repo", "github.com", "user/repo", "v2"],
		["git://example.org:9418/a/b", "git://example.org:9418/a/b", "example.org", "a/b", undefined],
	])("reads %s as a git repository", (source, repo, host, path, ref) => {
		expect(parsePackageSource(source)).toEqual({
			type: "git",
			source,
			repo,
			host,
			path,
			...(ref ? { ref } : {}),
			pinned: ref !== undefined,
		});
	});

	it("takes a shorthand without the git: prefix, or anything else, as a local path", () => {
		for (const source of ["github.com/user/repo", "my-pack", "./pack", "~/pack", "/abs/pack", "git:nohost"]) {
			expect(parsePackageSource(source).type).toBe("local");
		}
	});

	it("gives one identity to the https and ssh addresses of a repository, whatever the ref", () => {
		const identities = ["git:github.com/u/r@v1", "https://github.com/u/r", "git:git@github.com:u/r.git"].map(
			(source) => packageIdentity(parsePackageSource(source)),
		);
		expect(new Set(identities)).toEqual(new Set(["git:github.com/u/r"]));
	});
});

describe("install locations", () => {
	const locations = {
		cwd: "/work/project",
		agentDir: "/home/me/.agent",
		homeDir: "/home/me",
		temporaryDir: "/tmp/cache",
	};

	it("keeps npm packages under <root>/npm/node_modules and clones under <root>/git/<host>/<path>", () => {
		const npm = parsePackageSource("npm:@acme/tools@1.0.0");
		expect(packageInstallPath(npm, "user", locations)).toBe(join("/home/me/.agent/npm/node_modules/@acme/tools"));
		expect(packageInstallPath(npm, "project", locations)).toBe(
			join("/work/project/.agent/npm/node_modules/@acme/tools"),
		);
		const git = parsePackageSource("git:github.com/user/repo@v1");
		expect(packageInstallPath(git, "user", locations)).toBe(join("/home/me/.agent/git/github.com/user/repo"));
		expect(packageInstallPath(git, "temporary", locations)).toMatch(
			/^\/tmp\/cache\/git\/[0-9a-f]{12}\/github.com\/user\/repo$/,
		);
	});

	it("resolves local paths against the settings file's directory", () => {
		const local = parsePackageSource("../pack");
		expect(packageInstallPath(local, "user", locations)).toBe("/home/me/pack");
		expect(packageInstallPath(local, "project", locations)).toBe("/work/project/pack");
		expect(packageInstallPath(parsePackageSource("~/pack"), "project", locations)).toBe("/home/me/pack");
	});
});

describe("settings entries", () => {
	const locations = { cwd: "/work/project", agentDir: "/home/me/.agent", homeDir: "/home/me" };

	it("writes a relative local path relative to the settings file, other sources as typed", () => {
		expect(sourceForSettings("./pack", "user", locations)).toBe("../../../work/project/pack");
		expect(sourceForSettings("./pack", "project", locations)).toBe("../pack");
		expect(sourceForSettings("/opt/pack", "user", locations)).toBe("/opt/pack");
		expect(sourceForSettings("npm:x@1", "user", locations)).toBe("npm:x@1");
	});

	it("replaces the entry of the same package in place, keeping its filters", () => {
		const packages = ["npm:a", { source: "git:github.com/u/r@v1", skills: ["x"] }, "npm:b"];
		expect(withPackageAdded(packages, "https://github.com/u/r@v2", "user", locations)).toEqual([
			"npm:a",
			{ source: "https://github.com/u/r@v2", skills: ["x"] },
			"npm:b",
		]);
		expect(withPackageAdded(packages, "npm:c", "user", locations)).toEqual([...packages, "npm:c"]);
	});

	it("removes every entry of the package, by identity", () => {
		const packages = ["npm:a@1", { source: "npm:a" }, "../pack", "npm:b"];
		expect(withPackageRemoved(packages, "npm:a@2", "project", locations)).toEqual(["../pack", "npm:b"]);
		expect(withPackageRemoved(packages, "./pack", "project", locations)).toEqual([
			"npm:a@1",
			{ source: "npm:a" },
			"npm:b",
		]);
	});
});
